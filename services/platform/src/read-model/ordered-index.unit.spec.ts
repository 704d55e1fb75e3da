import { find } from 'mingo';
import type { AnyObject } from 'mingo/types';
import { MemoryReadModelStore } from './memory.read-model';
import type { Filter, FindOptions } from './read-model.port';

interface Entry {
  _id: string;
  environment: string;
  source: string | string[];
  seq: number;
  index: number;
  code: string;
}

/** A deterministic pseudo-random sequence (a run is reproducible). */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

const pick = <T>(next: (below: number) => number, values: readonly T[]) => values[next(values.length)] as T;

/** What MongoDB answers: every document tested, then sorted (then by `_id`), skipped and limited. */
function scan(documents: Entry[], filter: Filter, options: FindOptions): Entry[] {
  const cursor = find(documents as unknown as AnyObject[], filter as AnyObject).sort({ ...options.sort, _id: 1 });
  if (options.skip) cursor.skip(options.skip);
  if (options.limit !== undefined) cursor.limit(options.limit);
  return cursor.all() as unknown as Entry[];
}

/** The feed's query: equality on environment and source, after a (seq, index) position, some codes. */
function feedQuery(next: (below: number) => number): { filter: Filter; options: FindOptions } {
  const [seq, index] = [next(60), next(4)];
  const filter: Filter = {
    environment: pick(next, ['sandbox', 'production']),
    source: pick(next, ['identity', 'auth-methods', 'webhooks']),
    ...(next(3) === 0 ? {} : { seq: { $gte: seq }, $or: [{ seq: { $gt: seq } }, { index: { $gt: index } }] }),
    ...(next(3) === 0 ? { code: { $in: ['user.created', 'user.deleted'] } } : {}),
  };
  const sorted = next(4) !== 0;
  return {
    filter,
    options: {
      ...(sorted ? { sort: { seq: 1, index: 1 } } : { sort: { code: 1 } }),
      ...(next(5) === 0 ? {} : { limit: next(15) }),
      ...(next(4) === 0 ? { skip: next(5) } : {}),
    },
  };
}

describe('A compound index kept in order (memory read model)', () => {
  async function filled(seed: number, entries = 600) {
    const next = random(seed);
    const collection = new MemoryReadModelStore().collection<Entry>('entries');
    await collection.ensureIndex(['environment', 'source', 'seq', 'index']);
    const documents = new Map<string, Entry>();
    for (let n = 0; n < entries; n++) {
      const entry: Entry = {
        _id: `e${next(entries / 2)}`,
        environment: pick(next, ['sandbox', 'production']),
        source: pick(next, ['identity', 'auth-methods', 'webhooks']),
        seq: next(80),
        index: next(4),
        code: pick(next, ['user.created', 'user.updated', 'user.deleted']),
      };
      // Some ids are written again (the document moves in the index), some deleted.
      if (next(10) === 0 && documents.has(entry._id)) {
        await collection.delete(entry._id);
        documents.delete(entry._id);
      } else {
        await collection.upsert(entry);
        documents.set(entry._id, entry);
      }
    }
    return { collection, documents, next };
  }

  it.each([1, 2, 3])('answers what a scan of every document answers (run %i: 300 random feed queries)', async (seed) => {
    const { collection, documents, next } = await filled(seed);
    for (let round = 0; round < 300; round++) {
      const { filter, options } = feedQuery(next);
      const expected = scan([...documents.values()], filter, options);
      const answered = await collection.find(filter, options);
      const ids = (list: Entry[]) => list.map((entry) => entry._id);
      if (options.sort?.seq) expect(ids(answered)).toEqual(ids(expected));
      else expect(ids(answered).sort()).toEqual(ids(expected).sort());
    }
  });

  it('answers the same after a drop and refill, and with a bound of another type than the values', async () => {
    const { collection } = await filled(4, 100);
    await collection.drop();
    await collection.upsert({ _id: 'a', environment: 'sandbox', source: 'identity', seq: 5, index: 0, code: 'user.created' });
    await collection.upsert({ _id: 'b', environment: 'sandbox', source: 'identity', seq: 7, index: 1, code: 'user.created' });
    const sort = { seq: 1, index: 1 } as const;
    expect(await collection.find({ environment: 'sandbox', source: 'identity', seq: { $gt: 5 } }, { sort, limit: 5 })).toEqual([
      expect.objectContaining({ _id: 'b' }),
    ]);
    expect(await collection.find({ environment: 'sandbox', source: 'identity', seq: { $gt: '5' } }, { sort, limit: 5 })).toEqual(
      [],
    );
    expect(await collection.find({ environment: 'sandbox', source: 'identity' }, { sort, limit: 0 })).toEqual([]);
  });

  it('falls back to a scan, with the same answers, once a document holds an array at an indexed field (multikey)', async () => {
    const { collection, documents, next } = await filled(5, 200);
    const multikey: Entry = {
      _id: 'multi',
      environment: 'sandbox',
      source: ['identity', 'webhooks'],
      seq: 3,
      index: 0,
      code: 'user.created',
    };
    await collection.upsert(multikey);
    documents.set(multikey._id, multikey);
    for (let round = 0; round < 100; round++) {
      const { filter, options } = feedQuery(next);
      const expected = scan([...documents.values()], filter, options).map((entry) => entry._id);
      const answered = (await collection.find(filter, options)).map((entry) => entry._id);
      if (options.sort?.seq) expect(answered).toEqual(expected);
      else expect(answered.sort()).toEqual(expected.sort());
    }
    expect(
      (await collection.find({ environment: 'sandbox', source: 'webhooks', seq: 3 }, {})).map((entry) => entry._id),
    ).toContain('multi');
  });
});
