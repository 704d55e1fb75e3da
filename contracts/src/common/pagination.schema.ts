import { z } from '../zod';
import { integerInputSchema } from './primitives.schema';

export const defaultPerPage = 10;
export const maxPerPage = 100;

export const pageQuerySchema = z.object({
  page: integerInputSchema.pipe(z.number().min(1)).optional(),
  current_page: integerInputSchema.pipe(z.number().min(1)).optional(),
  per_page: integerInputSchema.pipe(z.number().min(1).max(maxPerPage)).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const paginationSchema = z
  .object({
    current_page: z.number().int(),
    current_pages: z.number().int().meta({ description: 'The same as `current_page` (SPEC.md section 3 names both)' }),
    next_page: z.number().int().nullable(),
    prev_page: z.number().int().nullable(),
    per_page: z.number().int(),
    total_pages: z.number().int(),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof paginationSchema>;

export const listSchema = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ data: z.array(item), pagination: paginationSchema, total: z.number().int() }).meta({ id });

export interface Page {
  page: number;
  perPage: number;
  skip: number;
}

/** Resolves `page`/`current_page` and `per_page` query parameters into a page window. */
export function resolvePage(query: PageQuery): Page {
  const page = query.page ?? query.current_page ?? 1;
  const perPage = query.per_page ?? defaultPerPage;
  return { page, perPage, skip: (page - 1) * perPage };
}

export function paginate<T>(data: T[], total: number, { page, perPage }: Page) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const pagination: Pagination = {
    current_page: page,
    current_pages: page,
    next_page: page < totalPages ? page + 1 : null,
    prev_page: page > 1 ? Math.min(page - 1, totalPages) : null,
    per_page: perPage,
    total_pages: totalPages,
  };
  return { data, pagination, total };
}

export const deletedSchema = <T extends z.ZodType>(resource: T, id: string) =>
  z.object({ deleted: z.boolean(), resource }).meta({ id });
