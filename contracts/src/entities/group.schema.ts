import { z } from '../zod';
import { timestampSchema } from '../common/primitives.schema';

/** SPEC.md shows no fields for groups; these are the ones directory sync needs. */
export const groupSchema = z
  .object({
    __type__: z.literal('Group'),
    __domain__: z.string(),
    __environment__: z.enum(['sandbox', 'production']),
    id: z.uuid(),
    display_name: z.string(),
    members: z.array(z.uuid()),
    inserted_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Group' });
export type Group = z.infer<typeof groupSchema>;
