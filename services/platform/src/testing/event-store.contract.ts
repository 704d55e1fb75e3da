import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '../event-store/event-store.port';
import type { Commit, EventMetadata, EventStore } from '../event-store/event-store.port';

const metadata = (): EventMetadata => ({
  correlationId: randomUUID(),
  environment: 'sandbox',
  occurredAt: new Date().toISOString(),
});

const event = (type: string, data: unknown = {}) => ({ type, data });

async function waitFor(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The behaviour every event-store adapter must have (memory, JetStream, EventStoreDB).
 * `open` gives a fresh, empty store; `close` disposes of it.
 */
export function eventStoreContract(open: () => Promise<EventStore>, close: (store: EventStore) => Promise<void>) {
  let store: EventStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await close(store);
  });

  it('reads a stream that does not exist as revision -1 with no events', async () => {
    expect(await store.readStream('thing-missing')).toEqual({ revision: -1, events: [] });
  });

  it('appends to a new stream and reads the events back in order with ids and metadata', async () => {
    const meta = metadata();
    const result = await store.appendToStream('thing-1', [event('A', { n: 1 }), event('B', { n: 2 })], {
      expectedRevision: 'no_stream',
      metadata: meta,
    });
    expect(result.nextRevision).toBe(1);
    const read = await store.readStream('thing-1');
    expect(read.revision).toBe(1);
    expect(read.events.map((e) => [e.type, e.data, e.revision, e.stream])).toEqual([
      ['A', { n: 1 }, 0, 'thing-1'],
      ['B', { n: 2 }, 1, 'thing-1'],
    ]);
    expect(read.events[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.events[0]?.metadata).toEqual(meta);
  });

  it('refuses "no stream expected" on an existing stream', async () => {
    await store.appendToStream('thing-2', [event('A')], { expectedRevision: 'no_stream', metadata: metadata() });
    await expect(
      store.appendToStream('thing-2', [event('B')], { expectedRevision: 'no_stream', metadata: metadata() }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
  });

  it('appends at the expected revision and refuses a stale one, leaving the stream unchanged', async () => {
    await store.appendToStream('thing-3', [event('A')], { expectedRevision: 'no_stream', metadata: metadata() });
    await store.appendToStream('thing-3', [event('B')], { expectedRevision: 0, metadata: metadata() });
    await expect(
      store.appendToStream('thing-3', [event('C')], { expectedRevision: 0, metadata: metadata() }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    const read = await store.readStream('thing-3');
    expect(read.events.map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('lets exactly one of two concurrent appends at the same revision win', async () => {
    await store.appendToStream('thing-4', [event('A')], { expectedRevision: 'no_stream', metadata: metadata() });
    const outcomes = await Promise.allSettled(
      ['B', 'C'].map((type) => store.appendToStream('thing-4', [event(type)], { expectedRevision: 0, metadata: metadata() })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ConcurrencyError);
    expect((await store.readStream('thing-4')).revision).toBe(1);
  });

  it('reads a stream of many commits in full, in order', async () => {
    for (let i = 0; i < 12; i++)
      await store.appendToStream('thing-5', [event('N', { i })], {
        expectedRevision: i === 0 ? 'no_stream' : i - 1,
        metadata: metadata(),
      });
    const read = await store.readStream('thing-5');
    expect(read.events.map((e) => (e.data as { i: number }).i)).toEqual([...Array(12).keys()]);
    expect(read.revision).toBe(11);
  });

  it('reads a stream from a revision: its events from there on (within a commit too), and its last revision', async () => {
    const commits = [['A', 'B'], ['C'], ['D', 'E'], ['F']];
    let revision = -1;
    for (const types of commits) {
      await store.appendToStream(
        'thing-9',
        types.map((type) => event(type)),
        {
          expectedRevision: revision === -1 ? 'no_stream' : revision,
          metadata: metadata(),
        },
      );
      revision += types.length;
    }
    const from = async (fromRevision: number) => {
      const read = await store.readStream('thing-9', { fromRevision });
      return [read.revision, read.events.map((e) => `${e.type}${e.revision}`).join(' ')];
    };
    const expected = [
      [5, 'A0 B1 C2 D3 E4 F5'],
      [5, 'C2 D3 E4 F5'],
      [5, 'E4 F5'],
      [5, 'F5'],
      [5, ''],
      [5, ''],
    ];
    // Before and after a whole read (a store may keep what it read).
    expect(await Promise.all([0, 2, 4, 5, 6, 99].map(from))).toEqual(expected);
    expect((await store.readStream('thing-9')).revision).toBe(5);
    expect(await Promise.all([0, 2, 4, 5, 6, 99].map(from))).toEqual(expected);
    await store.appendToStream('thing-9', [event('G'), event('H')], { expectedRevision: 5, metadata: metadata() });
    expect(await Promise.all([4, 6, 7, 8].map(from))).toEqual([
      [7, 'E4 F5 G6 H7'],
      [7, 'G6 H7'],
      [7, 'H7'],
      [7, ''],
    ]);
    expect(await store.readStream('thing-missing', { fromRevision: 3 })).toEqual({ revision: -1, events: [] });
  });

  it('keeps stream ids with dots, @, colons and unicode apart and intact', async () => {
    const ids = ['ada@acme.com', 'ada@acme:com', 'zoë.müller@exämple.fr', 'a.b.c', 'a~2eb'];
    for (const id of ids)
      await store.appendToStream(`unique-${id}`, [event('R', { id })], { expectedRevision: 'no_stream', metadata: metadata() });
    for (const id of ids) {
      const read = await store.readStream(`unique-${id}`);
      expect(read.events.map((e) => e.data)).toEqual([{ id }]);
      expect(read.events[0]?.stream).toBe(`unique-${id}`);
    }
  });

  it('appends with "any" whatever the revision', async () => {
    await store.appendToStream('thing-6', [event('A')], { expectedRevision: 'any', metadata: metadata() });
    await store.appendToStream('thing-6', [event('B')], { expectedRevision: 'any', metadata: metadata() });
    expect((await store.readStream('thing-6')).events.map((e) => [e.type, e.revision])).toEqual([
      ['A', 0],
      ['B', 1],
    ]);
  });

  it('delivers every commit from the start, then live ones, in order of position', async () => {
    await store.appendToStream('thing-7', [event('A'), event('B')], { expectedRevision: 'no_stream', metadata: metadata() });
    await store.appendToStream('other-7', [event('C')], { expectedRevision: 'no_stream', metadata: metadata() });
    const received: Commit[] = [];
    const subscription = store.subscribeToAll({ from: 0n, onCommit: async (commit) => void received.push(commit) });
    try {
      await waitFor(() => received.length === 2);
      await store.appendToStream('thing-7', [event('D')], { expectedRevision: 1, metadata: metadata() });
      await waitFor(() => received.reduce((n, c) => n + c.events.length, 0) === 4);
      expect(received.flatMap((c) => c.events.map((e) => e.type))).toEqual(['A', 'B', 'C', 'D']);
      const positions = received.map((c) => c.position);
      expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
      expect(await store.headPosition()).toBe(positions.at(-1));
    } finally {
      await subscription.stop();
    }
  });

  it('resumes a subscription after a given position', async () => {
    const first = await store.appendToStream('thing-8', [event('A')], { expectedRevision: 'no_stream', metadata: metadata() });
    await store.appendToStream('thing-8', [event('B')], { expectedRevision: 0, metadata: metadata() });
    const received: string[] = [];
    const subscription = store.subscribeToAll({
      from: first.position,
      onCommit: async (commit) => void received.push(...commit.events.map((e) => e.type)),
    });
    try {
      await waitFor(() => received.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).toEqual(['B']);
    } finally {
      await subscription.stop();
    }
  });

  it('retries a commit whose handler failed instead of skipping it', async () => {
    await store.appendToStream('thing-9', [event('A')], { expectedRevision: 'no_stream', metadata: metadata() });
    let calls = 0;
    const received: string[] = [];
    const subscription = store.subscribeToAll({
      from: 0n,
      onCommit: async (commit) => {
        calls += 1;
        if (calls === 1) throw new Error('read model down');
        received.push(...commit.events.map((e) => e.type));
      },
    });
    try {
      await waitFor(() => received.length === 1, 10_000);
      expect(received).toEqual(['A']);
    } finally {
      await subscription.stop();
    }
  });

  it('answers position 0 as head of an empty store', async () => {
    expect(await store.headPosition()).toBe(0n);
  });
}
