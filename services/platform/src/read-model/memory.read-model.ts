import { Query, find } from 'mingo';
import type { AnyObject } from 'mingo/types';
import { assertStorable, isNewer } from './read-model.port';
import type { Collection, Filter, FindOptions, ReadModelDocument, ReadModelStore } from './read-model.port';

/**
 * In-process read models, rebuilt from the event store at start (the embedded default).
 * Queries use mingo, so they behave as on MongoDB; equality on an indexed field skips the scan.
 */
export class MemoryReadModelStore implements ReadModelStore {
  private readonly collections = new Map<string, MemoryCollection<ReadModelDocument>>();

  collection<T extends ReadModelDocument>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MemoryCollection();
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  async close(): Promise<void> {
    this.collections.clear();
  }
}

class MemoryCollection<T extends ReadModelDocument> implements Collection<T> {
  private readonly documents = new Map<string, T>();
  /** field → JSON of value → ids; only the first field of each declared index, one entry per array element (multikey). */
  private readonly indexes = new Map<string, Map<string, Set<string>>>();

  async get(id: string): Promise<T | null> {
    const document = this.documents.get(id);
    return document ? structuredClone(document) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const cursor = find(this.candidates(filter) as AnyObject[], filter as AnyObject);
    if (options.sort) cursor.sort({ ...options.sort, ...(options.sort._id ? {} : { _id: 1 }) });
    if (options.skip) cursor.skip(options.skip);
    if (options.limit !== undefined) cursor.limit(options.limit);
    return structuredClone(cursor.all() as T[]);
  }

  async count(filter: Filter): Promise<number> {
    if (Object.keys(filter).length === 0) return this.documents.size;
    const query = new Query(filter as AnyObject, {});
    let total = 0;
    for (const document of this.candidates(filter)) if (query.test(document as AnyObject)) total++;
    return total;
  }

  async upsert(document: T): Promise<boolean> {
    assertStorable(document);
    const stored = this.documents.get(document._id);
    if (!isNewer(document, stored)) return false;
    if (stored) this.unindex(stored);
    const copy = structuredClone(document);
    this.documents.set(document._id, copy);
    this.index(copy);
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const stored = this.documents.get(id);
    if (!stored) return false;
    this.unindex(stored);
    return this.documents.delete(id);
  }

  async deleteMany(filter: Filter): Promise<number> {
    const query = new Query(filter as AnyObject, {});
    let removed = 0;
    for (const document of [...this.candidates(filter)])
      if (query.test(document as AnyObject) && (await this.delete(document._id))) removed++;
    return removed;
  }

  async drop(): Promise<void> {
    this.documents.clear();
    for (const index of this.indexes.values()) index.clear();
  }

  async ensureIndex(fields: string[]): Promise<void> {
    const field = fields[0];
    if (!field || this.indexes.has(field)) return;
    this.indexes.set(field, new Map());
    for (const document of this.documents.values()) this.index(document);
  }

  private candidates(filter: Filter): Iterable<T> {
    for (const [field, index] of this.indexes) {
      const value = filter[field];
      if (value === undefined || (typeof value === 'object' && value !== null)) continue;
      const ids = index.get(JSON.stringify(value));
      return [...(ids ?? [])].map((id) => this.documents.get(id) as T);
    }
    return this.documents.values();
  }

  private index(document: T): void {
    for (const [field, index] of this.indexes)
      for (const key of indexKeys(document, field)) {
        let ids = index.get(key);
        if (!ids) index.set(key, (ids = new Set()));
        ids.add(document._id);
      }
  }

  private unindex(document: T): void {
    for (const [field, index] of this.indexes) for (const key of indexKeys(document, field)) index.get(key)?.delete(document._id);
  }
}

/**
 * The JSON of the value at `path`; where the path crosses arrays, of each element, as MongoDB's
 * multikey indexes (`members.value` of `{ members: [{ value: 'a' }, { value: 'b' }] }` is `a` and `b`).
 */
function indexKeys(document: object, path: string): Set<string> {
  let values: unknown[] = [document];
  for (const key of path.split('.'))
    values = values.flatMap((value) => {
      const inner = (value as Record<string, unknown> | null | undefined)?.[key];
      return Array.isArray(inner) ? inner : [inner];
    });
  return new Set(values.map((value) => JSON.stringify(value)));
}
