import { paginate, resolvePage } from '@sesame/contracts';
import type { PageQuery } from '@sesame/contracts';
import type { Collection, Filter, ReadModelDocument, Sort } from './read-model.port';

/** What a list operation asks of a read model: the documents `filter` selects, in `sort` order, at page `query`. */
export interface PageRequest {
  filter: Filter;
  sort: Sort;
  query: PageQuery;
}

/**
 * One page of a read model and the count of all it selects, each document presented by `present`:
 * the body of every list operation (`data`, `pagination`, `total`).
 */
export async function findPage<T extends ReadModelDocument, R>(
  collection: Collection<T>,
  { filter, sort, query }: PageRequest,
  present: (document: T) => R,
) {
  const page = resolvePage(query);
  const [documents, total] = await Promise.all([
    collection.find(filter, { sort, skip: page.skip, limit: page.perPage }),
    collection.count(filter),
  ]);
  return paginate(
    documents.map((document) => present(document)),
    total,
    page,
  );
}
