import { jsonDepth } from '@sesame/contracts';

/** A MongoDB query document. Both adapters run the same query language (the in-memory one with mingo). */
export type Filter = Record<string, unknown>;
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

export interface ReadModelDocument {
  _id: string;
  /** Revision of the source stream the document reflects; writes with a lower one are ignored. */
  _rev?: number;
}

export interface Collection<T extends ReadModelDocument> {
  get(id: string): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /**
   * Inserts or replaces the document, unless the stored one carries a `_rev` greater than or
   * equal to the new one's. Answers whether it was written.
   */
  upsert(document: T): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
  drop(): Promise<void>;
  /** Declares a (possibly compound) index; lookups by equality on its first field get fast. */
  ensureIndex(fields: string[]): Promise<void>;
}

export interface ReadModelStore {
  collection<T extends ReadModelDocument>(name: string): Collection<T>;
  close(): Promise<void>;
}

export function isNewer(incoming: ReadModelDocument, stored: ReadModelDocument | null | undefined): boolean {
  if (!stored || stored._rev === undefined || incoming._rev === undefined) return true;
  return incoming._rev > stored._rev;
}

/**
 * Levels of objects and arrays a read-model document may nest, the document itself being the
 * first: MongoDB refuses documents nested over 100 levels, and the in-memory store keeps the same
 * rule so that both behave alike (a document nested thousands of levels deep would also overflow
 * the stack of the copy the memory store keeps).
 */
export const maxDocumentDepth = 100;

/** A document no read model may hold: a property of the data, not of the store (retrying cannot help). */
export class ReadModelLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadModelLimitError';
  }
}

/** Throws a ReadModelLimitError unless every adapter can store `document`. */
export function assertStorable(document: ReadModelDocument): void {
  if (jsonDepth(document, maxDocumentDepth) > maxDocumentDepth)
    throw new ReadModelLimitError(`document nested deeper than ${maxDocumentDepth} levels`);
}
