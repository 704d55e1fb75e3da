import { randomUUID } from 'node:crypto';
import { connect, headers } from 'nats';
import type { NatsConnection, Subscription } from 'nats';
import { eventStoreContract } from '../testing/event-store.contract';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { withSilentConsumers } from '../testing/silent-consumers';
import { ConcurrencyError } from './event-store.port';
import type { EventMetadata, EventStore, Subscription as EventSubscription } from './event-store.port';
import { JetStreamEventStore } from './jetstream.event-store';

describe('JetStreamEventStore (real NATS server)', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
  });
  afterAll(async () => {
    await nc.close();
  });

  eventStoreContract(
    async () => {
      const prefix = testPrefix();
      return JetStreamEventStore.open(nc, {
        streamName: `${prefix}_CONTRACT`.toUpperCase(),
        subjectPrefix: `${prefix}.contract`,
      });
    },
    async (store: EventStore) => {
      await (store as JetStreamEventStore).destroy();
    },
  );

  it('refuses to reuse a JetStream stream configured for other subjects', async () => {
    const prefix = testPrefix();
    const name = `${prefix}_CLASH`.toUpperCase();
    const store = await JetStreamEventStore.open(nc, { streamName: name, subjectPrefix: `${prefix}.one` });
    try {
      await expect(JetStreamEventStore.open(nc, { streamName: name, subjectPrefix: `${prefix}.two` })).rejects.toThrow(
        /exists with other subjects/,
      );
    } finally {
      await store.destroy();
    }
  });

  describe('a second commit at one revision (the message id names the revision)', () => {
    let prefix: string;
    let store: JetStreamEventStore;
    const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
    beforeEach(async () => {
      prefix = testPrefix();
      store = await JetStreamEventStore.open(nc, { streamName: `${prefix}_REV`.toUpperCase(), subjectPrefix: `${prefix}.rev` });
    });
    afterEach(async () => {
      await store.destroy();
    });

    it('is refused as a conflict when another commit took that revision, even where the expected sequence let it through', async () => {
      // Another writer's commit, already kept under the id of revision 0 of n-x (nats-server#4320 lets it in on a cluster).
      const h = headers();
      h.set('Nats-Msg-Id', 'n-x@0');
      await nc
        .jetstream()
        .publish(`${prefix}.rev.events.other.y`, new TextEncoder().encode('{"v":1,"events":[{"id":"other"}]}'), { headers: h });
      await expect(
        store.appendToStream('n-x', [{ type: 'N', data: {} }], { expectedRevision: 'no_stream', metadata }),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      expect((await store.readStream('n-x')).revision).toBe(-1);
    });

    it('answers the commit already kept when the same commit is sent again', async () => {
      const event = { id: randomUUID(), type: 'N', data: {} };
      const first = await store.appendToStream('n-y', [event], { expectedRevision: 'no_stream', metadata });
      const again = await JetStreamEventStore.open(nc, {
        streamName: `${prefix}_REV`.toUpperCase(),
        subjectPrefix: `${prefix}.rev`,
      });
      const second = await again.appendToStream('n-y', [event], { expectedRevision: 'no_stream', metadata });
      expect(second.position).toBe(first.position);
      expect((await store.readStream('n-y')).events.map((recorded) => recorded.id)).toEqual([event.id]);
    });
  });

  describe('a subscription whose consumer goes silent while the stream holds newer commits', () => {
    let prefix: string;
    let streamName: string;
    let store: JetStreamEventStore;
    let positions: bigint[];
    let subscription: EventSubscription;
    const metadata = () => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });
    const append = (id: string) =>
      store.appendToStream(`n-${id}`, [{ type: 'N', data: {} }], { expectedRevision: 'no_stream', metadata: metadata() });
    const until = async (count: number, withinMs: number) => {
      await eventually(() => positions.length >= count, withinMs);
      return positions.length;
    };
    /** The consumers disappear without a word to the client (as ones whose deliveries went through a killed node). */
    const deleteConsumers = async () => {
      const jsm = await nc.jetstreamManager();
      for await (const consumer of jsm.consumers.list(streamName))
        await jsm.consumers.delete(streamName, consumer.name).catch(() => undefined);
    };
    beforeEach(async () => {
      prefix = testPrefix();
      streamName = `${prefix}_SILENT`.toUpperCase();
      store = await JetStreamEventStore.open(nc, { streamName, subjectPrefix: `${prefix}.silent`, stallMs: 400 });
      positions = [];
      subscription = store.subscribeToAll({ from: 0n, onCommit: async (commit) => void positions.push(commit.position) });
      await append('a');
      expect(await until(1, 5_000)).toBe(1);
    });
    afterEach(async () => {
      await subscription.stop();
      await store.destroy();
    });

    it('goes on with a new consumer (nats.js would notice the loss only after missed heartbeats, tens of seconds later)', async () => {
      await deleteConsumers();
      await append('b');
      await append('c');
      expect(await until(3, 4_000)).toBe(3);
      await append('d');
      expect(await until(4, 4_000)).toBe(4);
      expect(positions).toEqual([1n, 2n, 3n, 4n]);
    });

    it('reads the commits past the silence by direct get, in order, when every new consumer is silent too', async () => {
      const silentStore = await JetStreamEventStore.open(withSilentConsumers(nc), {
        streamName,
        subjectPrefix: `${prefix}.silent`,
        stallMs: 400,
      });
      const seen: bigint[] = [];
      const silent = silentStore.subscribeToAll({ from: 0n, onCommit: async (commit) => void seen.push(commit.position) });
      try {
        for (const id of ['b', 'c', 'd']) await append(id);
        await until(4, 4_000);
        for (const id of ['e', 'f']) await append(id);
        expect(await eventually(() => seen.length === 6, 4_000)).toBe(true);
        expect(seen).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
      } finally {
        await silent.stop();
      }
    });
  });

  describe('reading a stream again', () => {
    const metadata = (): EventMetadata => ({
      correlationId: randomUUID(),
      environment: 'sandbox',
      occurredAt: new Date().toISOString(),
    });
    let prefix: string;
    let writer: JetStreamEventStore;
    let reader: JetStreamEventStore;
    let consumersCreated: number;
    let directGets: number;
    let creations: Subscription;
    let gets: Subscription[];
    beforeEach(async () => {
      prefix = testPrefix();
      const options = { streamName: `${prefix}_AGAIN`.toUpperCase(), subjectPrefix: `${prefix}.again` };
      writer = await JetStreamEventStore.open(nc, options);
      reader = await JetStreamEventStore.open(nc, options);
      consumersCreated = 0;
      directGets = 0;
      creations = nc.subscribe(`$JS.API.CONSUMER.CREATE.${options.streamName}.>`, { callback: () => consumersCreated++ });
      // By sequence on the stream's subject, the last of a subject on one of its own.
      gets = [`$JS.API.DIRECT.GET.${options.streamName}`, `$JS.API.DIRECT.GET.${options.streamName}.>`].map((subject) =>
        nc.subscribe(subject, { callback: () => directGets++ }),
      );
      await nc.flush();
    });
    afterEach(async () => {
      creations.unsubscribe();
      for (const subscription of gets) subscription.unsubscribe();
      await writer.destroy();
    });
    const append = (store: EventStore, stream: string, from: number, count: number) =>
      store.appendToStream(
        stream,
        Array.from({ length: count }, (_, i) => ({ type: 'N', data: { i: from + i } })),
        { expectedRevision: from === 0 ? 'no_stream' : from - 1, metadata: metadata() },
      );
    const numbers = async (store: EventStore, stream: string) => {
      const read = await store.readStream(stream);
      await nc.flush();
      return { revision: read.revision, numbers: read.events.map((e) => [e.revision, (e.data as { i: number }).i]) };
    };
    const upTo = (n: number) => ({ revision: n - 1, numbers: [...Array(n).keys()].map((i) => [i, i]) });

    it("reads another instance's appends in full each time, from where it last read, between other streams' commits", async () => {
      for (let i = 0; i < 5; i++) {
        await append(writer, 'thing-a', i, 1);
        await append(writer, `other-${i}`, 0, 1);
      }
      expect(await numbers(reader, 'thing-a')).toEqual(upTo(5));
      await append(writer, 'thing-a', 5, 2);
      await append(writer, 'other-9', 0, 1);
      await append(writer, 'thing-a', 7, 1);
      expect(await numbers(reader, 'thing-a')).toEqual(upTo(8));
      await append(writer, 'thing-a', 8, 3);
      expect(await numbers(reader, 'thing-a')).toEqual(upTo(11));
      expect(await numbers(reader, 'thing-a')).toEqual(upTo(11));
    });

    it('reads with direct gets only: its last commit, then those before it that it has not seen', async () => {
      const getsOfRead = async (store: EventStore, count: number) => {
        const before = directGets;
        expect(await numbers(store, 'thing-b')).toEqual(upTo(count));
        return directGets - before;
      };
      for (let i = 0; i < 6; i++) await append(writer, 'thing-b', i, 1);
      expect(await getsOfRead(writer, 6)).toBe(1);
      expect(await getsOfRead(reader, 6)).toBe(1 + 5);
      await append(reader, 'thing-b', 6, 2);
      expect(await getsOfRead(reader, 8)).toBe(1);
      for (let i = 8; i < 11; i++) await append(writer, 'thing-b', i, 1);
      expect(await getsOfRead(reader, 11)).toBe(1 + 2);
      expect(consumersCreated).toBe(0);
    });

    it('gives each read events of its own: changing them changes no later read', async () => {
      for (let i = 0; i < 3; i++) await append(writer, 'thing-c', i, 1);
      const first = await writer.readStream('thing-c');
      (first.events[0]!.data as { i: number }).i = 99;
      first.events.pop();
      expect(await numbers(writer, 'thing-c')).toEqual(upTo(3));
    });
  });
});

async function eventually(check: () => boolean, withinMs: number): Promise<boolean> {
  const started = Date.now();
  while (!check() && Date.now() - started < withinMs) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}
