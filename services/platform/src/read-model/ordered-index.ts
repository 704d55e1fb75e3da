import type { Filter, FindOptions } from './read-model.port';

/** A document's values at an index's fields, then its id: its place in the index. */
type Key = unknown[];

/** How a `find` can walk an ordered index: from where, while what holds, and whether it comes out sorted. */
export interface IndexScan {
  /** The documents' ids in index order, from the first one the query can match. */
  ids(): Iterable<string>;
  /** Whether the walk yields documents in the order the query asked: it may then stop at its limit. */
  sorted: boolean;
}

/**
 * A compound index kept in order, as MongoDB's B-tree indexes are: the documents sorted by their
 * values at `fields` (then by id). A query with equality on the first fields (at least one) and
 * optionally a lower bound (`$gt`, `$gte`) on the next one walks only the documents past that
 * point with those values, in index order; a query sorted ascending by the remaining fields gets
 * them in its order and may stop at its limit. A document with an array at one of the fields makes
 * the index unusable (MongoDB's multikey semantics are not modelled): queries then scan.
 */
export class OrderedIndex {
  private readonly keys: Key[] = [];
  private multikey = false;

  constructor(readonly fields: string[]) {}

  add(id: string, document: object): void {
    const key = this.keyOf(id, document);
    if (!key) return;
    this.keys.splice(this.lowerBound(key, key.length), 0, key);
  }

  remove(id: string, document: object): void {
    const key = this.keyOf(id, document);
    if (!key) return;
    const at = this.lowerBound(key, key.length);
    if (at < this.keys.length && compareKeys(this.keys[at] as Key, key, key.length) === 0) this.keys.splice(at, 1);
  }

  clear(): void {
    this.keys.length = 0;
    this.multikey = false;
  }

  /** How this index serves `filter` sorted by `sort`, or null when it cannot (no equality on its first field). */
  scan(filter: Filter, sort: FindOptions['sort']): IndexScan | null {
    if (this.multikey) return null;
    const prefix: unknown[] = [];
    for (const field of this.fields) {
      const value = filter[field];
      if (!isScalar(value)) break;
      prefix.push(value);
    }
    if (prefix.length === 0) return null;
    const next = this.fields[prefix.length];
    const bound = next === undefined ? undefined : lowerBoundOf(filter[next]);
    const start = this.lowerBound(
      bound === undefined ? prefix : [...prefix, bound],
      bound === undefined ? prefix.length : prefix.length + 1,
    );
    const keys = this.keys;
    return {
      sorted: sortFollows(sort, this.fields.slice(prefix.length)),
      *ids() {
        for (let at = start; at < keys.length; at++) {
          const key = keys[at] as Key;
          if (compareKeys(key, prefix, prefix.length) !== 0) return;
          yield key[key.length - 1] as string;
        }
      },
    };
  }

  /** The document's key, or null (and the index unusable from now on) when a field holds an array. */
  private keyOf(id: string, document: object): Key | null {
    const values = this.fields.map((field) => valueAt(document, field));
    if (values.some(Array.isArray)) {
      this.multikey = true;
      return null;
    }
    return [...values, id];
  }

  /** The first place whose first `length` values are not below `key`'s. */
  private lowerBound(key: Key, length: number): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareKeys(this.keys[middle] as Key, key, length) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const isScalar = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** The lower bound a condition like `{ $gt: 3 }` or `{ $gte: 'a', $lt: 'z' }` sets, if a scalar one. */
function lowerBoundOf(condition: unknown): unknown {
  if (typeof condition !== 'object' || condition === null) return undefined;
  const { $gt, $gte } = condition as { $gt?: unknown; $gte?: unknown };
  const bound = $gte ?? $gt;
  return isScalar(bound) ? bound : undefined;
}

/** Whether `sort` (then `_id`, as `find` sorts) is ascending on exactly `fields`, then on `_id` if at all. */
function sortFollows(sort: FindOptions['sort'], fields: string[]): boolean {
  if (!sort) return false;
  const entries = Object.entries(sort).filter(([field], index, all) => !(field === '_id' && index === all.length - 1));
  if (entries.length !== fields.length) return false;
  return entries.every(([field, direction], index) => field === fields[index] && direction === 1);
}

function valueAt(document: object, path: string): unknown {
  let value: unknown = document;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value;
}

/** Types in MongoDB's comparison order (missing and null first, then numbers, strings, booleans). */
const rank = (value: unknown) =>
  value === undefined || value === null ? 0 : typeof value === 'number' ? 1 : typeof value === 'string' ? 2 : 3;

function compareValues(a: unknown, b: unknown): number {
  const byType = rank(a) - rank(b);
  if (byType !== 0) return byType;
  if (rank(a) === 0) return 0;
  return a === b ? 0 : (a as number | string | boolean) < (b as number | string | boolean) ? -1 : 1;
}

function compareKeys(a: Key, b: Key, length: number): number {
  for (let index = 0; index < length; index++) {
    const order = compareValues(a[index], b[index]);
    if (order !== 0) return order;
  }
  return 0;
}
