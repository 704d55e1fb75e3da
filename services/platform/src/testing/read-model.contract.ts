import { MemoryEventStore } from '../event-store/memory.event-store';
import { createLogger } from '../logging/logger';
import { AggregateView } from '../projections/aggregate-view';
import { MemoryParkedCommits } from '../projections/parked-commits';
import { ProjectionRunner } from '../projections/projection-runner';
import { ReadModelLimitError } from '../read-model/read-model.port';
import type { Collection, ReadModelDocument, ReadModelStore } from '../read-model/read-model.port';

interface Person extends ReadModelDocument {
  name: string;
  email: string;
  age: number;
  tags: string[];
  address: { city: string };
  environments: { name: string; status: string }[];
}

const people: Person[] = [
  {
    _id: 'p1',
    _rev: 0,
    name: 'Ada',
    email: 'ada@acme.com',
    age: 36,
    tags: ['admin'],
    address: { city: 'London' },
    environments: [{ name: 'sandbox', status: 'up' }],
  },
  {
    _id: 'p2',
    _rev: 0,
    name: 'Grace',
    email: 'grace@navy.mil',
    age: 45,
    tags: ['admin', 'ops'],
    address: { city: 'Arlington' },
    environments: [{ name: 'sandbox', status: 'down' }],
  },
  {
    _id: 'p3',
    _rev: 0,
    name: 'Linus',
    email: 'linus@kernel.org',
    age: 28,
    tags: [],
    address: { city: 'Portland' },
    environments: [{ name: 'production', status: 'up' }],
  },
];

/** `{ a: { a: … 'x' } }`, `depth` objects deep. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level++) value = { a: value };
  return value as Record<string, unknown>;
}

/** The behaviour every read-model adapter must have (memory, MongoDB). */
export function readModelContract(open: () => Promise<ReadModelStore>, close: (store: ReadModelStore) => Promise<void>) {
  let store: ReadModelStore;
  let collection: Collection<Person>;
  beforeEach(async () => {
    store = await open();
    collection = store.collection<Person>(`people_${Math.random().toString(36).slice(2, 8)}`);
    await collection.ensureIndex(['email']);
    for (const person of people) await collection.upsert(person);
  });
  afterEach(async () => {
    await collection.drop();
    await close(store);
  });

  it('gets a document by id, and null for an unknown id', async () => {
    expect(await collection.get('p1')).toEqual(people[0]);
    expect(await collection.get('nobody')).toBeNull();
  });

  it('finds by equality, nested fields, $in, $elemMatch, $regex and ranges', async () => {
    const ids = async (filter: Record<string, unknown>) =>
      (await collection.find(filter, { sort: { _id: 1 } })).map((p) => p._id);
    expect(await ids({ email: 'grace@navy.mil' })).toEqual(['p2']);
    expect(await ids({ 'address.city': 'Portland' })).toEqual(['p3']);
    expect(await ids({ tags: 'admin' })).toEqual(['p1', 'p2']);
    expect(await ids({ 'environments.status': { $in: ['up'] } })).toEqual(['p1', 'p3']);
    expect(await ids({ environments: { $elemMatch: { name: 'sandbox', status: 'down' } } })).toEqual(['p2']);
    expect(await ids({ name: { $regex: '^gr', $options: 'i' } })).toEqual(['p2']);
    expect(await ids({ age: { $gte: 30, $lt: 45 } })).toEqual(['p1']);
    expect(await ids({ $or: [{ name: 'Ada' }, { age: 28 }] })).toEqual(['p1', 'p3']);
  });

  it('sorts, skips and limits', async () => {
    const page = await collection.find({}, { sort: { age: -1 }, skip: 1, limit: 1 });
    expect(page.map((p) => p._id)).toEqual(['p1']);
  });

  it('counts matching documents', async () => {
    expect(await collection.count({})).toBe(3);
    expect(await collection.count({ tags: 'admin' })).toBe(2);
  });

  it('replaces with a newer revision and ignores an older or equal one', async () => {
    expect(await collection.upsert({ ...(people[0] as Person), name: 'Ada L.', _rev: 2 })).toBe(true);
    expect(await collection.upsert({ ...(people[0] as Person), name: 'stale', _rev: 1 })).toBe(false);
    expect(await collection.upsert({ ...(people[0] as Person), name: 'same', _rev: 2 })).toBe(false);
    expect((await collection.get('p1'))?.name).toBe('Ada L.');
  });

  it('keeps index lookups right after a document changes its indexed value', async () => {
    await collection.upsert({ ...(people[0] as Person), email: 'ada@lovelace.org', _rev: 1 });
    expect(await collection.find({ email: 'ada@acme.com' })).toEqual([]);
    expect((await collection.find({ email: 'ada@lovelace.org' })).map((p) => p._id)).toEqual(['p1']);
  });

  it('finds by an indexed field inside arrays (one entry per element), kept right as documents change', async () => {
    await collection.ensureIndex(['environments.name']);
    await collection.ensureIndex(['tags']);
    const ids = async (filter: Record<string, unknown>) =>
      (await collection.find(filter, { sort: { _id: 1 } })).map((p) => p._id);
    expect(await ids({ 'environments.name': 'sandbox' })).toEqual(['p1', 'p2']);
    expect(await ids({ tags: 'ops' })).toEqual(['p2']);
    await collection.upsert({
      ...(people[1] as Person),
      tags: ['ops'],
      environments: [{ name: 'production', status: 'up' }],
      _rev: 1,
    });
    expect(await ids({ 'environments.name': 'sandbox' })).toEqual(['p1']);
    expect(await ids({ 'environments.name': 'production' })).toEqual(['p2', 'p3']);
    expect(await ids({ tags: 'admin' })).toEqual(['p1']);
    await collection.delete('p2');
    expect(await ids({ tags: 'ops' })).toEqual([]);
  });

  it('finds by equality on an indexed field the value of that type only, and nothing for NaN', async () => {
    const codes = store.collection<ReadModelDocument & { code: unknown }>(`codes_${Math.random().toString(36).slice(2, 8)}`);
    await codes.ensureIndex(['code']);
    const values = ['1', 1, true, 'true', null, ['1', 2], 0];
    for (const [index, code] of values.entries()) await codes.upsert({ _id: `c${index}`, code });
    const ids = async (filter: Record<string, unknown>, options = {}) =>
      (await codes.find(filter, { sort: { _id: 1 }, ...options })).map((document) => document._id);
    expect(await ids({ code: '1' })).toEqual(['c0', 'c5']);
    expect(await ids({ code: 1 })).toEqual(['c1']);
    expect(await ids({ code: 2 })).toEqual(['c5']);
    expect(await ids({ code: true })).toEqual(['c2']);
    expect(await ids({ code: 'true' })).toEqual(['c3']);
    expect(await ids({ code: -0 })).toEqual(['c6']);
    expect(await ids({ code: Number.NaN })).toEqual([]);
    expect(await ids({ code: 'none' })).toEqual([]);
    expect(await ids({ code: 1 }, { skip: 1 })).toEqual([]);
    expect(await ids({ code: 1 }, { limit: 1 })).toEqual(['c1']);
    await codes.drop();
  });

  it('deletes one document and many by filter', async () => {
    expect(await collection.delete('p1')).toBe(true);
    expect(await collection.delete('p1')).toBe(false);
    expect(await collection.deleteMany({ tags: 'admin' })).toBe(1);
    expect((await collection.find({})).map((p) => p._id)).toEqual(['p3']);
  });

  it('refuses a document nested deeper than 100 levels (MongoDB’s limit), and keeps the stored one', async () => {
    const ada = people[0] as Person;
    expect(await collection.upsert({ ...ada, _rev: 1, address: nested(50) as never })).toBe(true);
    for (const depth of [100, 3_000])
      await expect(collection.upsert({ ...ada, _rev: 2, address: nested(depth) as never })).rejects.toThrow(
        new ReadModelLimitError('document nested deeper than 100 levels'),
      );
    expect(await collection.get('p1')).toEqual({ ...ada, _rev: 1, address: nested(50) });
  });

  it('lets a projection park a commit it cannot store and apply the next ones', async () => {
    type Named = { type: 'Named'; data: { name: unknown } };
    const events = new MemoryEventStore();
    const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
    const parked = new MemoryParkedCommits();
    const runner = new ProjectionRunner(events, store, createLogger('contract', 'silent'), {
      service: 'contract',
      parkedCommits: parked,
      retryDelayMs: 1,
    });
    const view = runner.register(
      new AggregateView(
        {
          name: `things_${Math.random().toString(36).slice(2, 8)}`,
          version: 1,
          category: 'thing',
          decider: {
            initialState: () => ({ name: null as unknown }),
            evolve: (_state: unknown, event: Named) => ({ name: event.data.name }),
          },
          isVisible: () => true,
        },
        store,
        events,
      ),
    );
    const append = (id: string, name: unknown) =>
      events.appendToStream(`thing-${id}`, [{ type: 'Named', data: { name } }], { expectedRevision: 'any', metadata });
    await append('1', 'first');
    const { events: deep } = await append('2', nested(150));
    await append('3', 'after');
    await runner.start();
    await runner.whenReady();
    expect(await view.documents.get('1')).toMatchObject({ name: 'first' });
    expect(await view.documents.get('2')).toBeNull();
    expect(await view.documents.get('3')).toMatchObject({ name: 'after' });
    expect(await parked.list()).toEqual([
      expect.objectContaining({
        event_id: deep[0]?.id,
        stream: 'thing-2',
        revision: 0,
        error: expect.stringContaining('ReadModelLimitError'),
      }),
    ]);
    await runner.stop();
    await view.documents.drop();
  });

  it('returns copies: changing a result does not change the store', async () => {
    const found = (await collection.get('p1')) as Person;
    found.name = 'mutated';
    found.address.city = 'mutated';
    expect(await collection.get('p1')).toEqual(people[0]);
  });
}
