import { MongoClient, MongoServerError } from 'mongodb';
import type { Db, Filter as MongoFilter, IndexSpecification, OptionalUnlessRequiredId } from 'mongodb';
import type { Collection, Filter, FindOptions, ReadModelDocument, ReadModelStore } from './read-model.port';
import { assertStorable } from './read-model.port';

export interface MongoReadModelOptions {
  url: string;
  database: string;
  /** Prefix of this service's collection names, e.g. `identity`. */
  namespace: string;
}

const duplicateKey = 11000;

/** Read models in MongoDB (production). Collections are named `<namespace>_<name>`. */
export class MongoReadModelStore implements ReadModelStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly namespace: string,
  ) {}

  static async connect(options: MongoReadModelOptions): Promise<MongoReadModelStore> {
    const client = await new MongoClient(options.url).connect();
    return new MongoReadModelStore(client, client.db(options.database), options.namespace);
  }

  collection<T extends ReadModelDocument>(name: string): Collection<T> {
    return new MongoCollection<T>(this.db.collection<T>(`${this.namespace}_${name}`));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

class MongoCollection<T extends ReadModelDocument> implements Collection<T> {
  constructor(private readonly collection: import('mongodb').Collection<T>) {}

  async get(id: string): Promise<T | null> {
    return (await this.collection.findOne({ _id: id } as MongoFilter<T>)) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.collection.find(filter as MongoFilter<T>);
    if (options.sort) cursor = cursor.sort({ ...options.sort, ...(options.sort._id ? {} : { _id: 1 }) });
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as T[];
  }

  async count(filter: Filter): Promise<number> {
    return this.collection.countDocuments(filter as MongoFilter<T>);
  }

  async upsert(document: T): Promise<boolean> {
    assertStorable(document);
    const guard =
      document._rev === undefined
        ? { _id: document._id }
        : { _id: document._id, $or: [{ _rev: { $lt: document._rev } }, { _rev: { $exists: false } }] };
    try {
      const result = await this.collection.replaceOne(guard as MongoFilter<T>, document as OptionalUnlessRequiredId<T>, {
        upsert: true,
      });
      return result.modifiedCount + result.upsertedCount > 0;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === duplicateKey) return false;
      throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: id } as MongoFilter<T>)).deletedCount > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.collection.deleteMany(filter as MongoFilter<T>)).deletedCount;
  }

  async drop(): Promise<void> {
    await this.collection.deleteMany({});
  }

  async ensureIndex(fields: string[]): Promise<void> {
    const spec = Object.fromEntries(fields.map((field) => [field, 1])) as IndexSpecification;
    await this.collection.createIndex(spec);
  }
}
