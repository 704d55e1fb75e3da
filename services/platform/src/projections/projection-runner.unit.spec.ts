import pino from 'pino';
import { MemoryEventStore } from '../event-store/memory.event-store';
import type { Commit } from '../event-store/event-store.port';
import { createLogger } from '../logging/logger';
import { Metrics } from '../metrics/metrics';
import { MemoryReadModelStore } from '../read-model/memory.read-model';
import type { ReadModelDocument, ReadModelStore } from '../read-model/read-model.port';
import { AggregateView } from './aggregate-view';
import { MemoryParkedCommits } from './parked-commits';
import { ProjectionRunner } from './projection-runner';

type Event = { type: 'Named'; data: { name: string } };
const view = (version: number) => ({
  name: 'things',
  version,
  category: 'thing',
  decider: { initialState: () => ({ name: '' }), evolve: (_s: { name: string }, e: Event) => ({ name: e.data.name }) },
  isVisible: () => true,
});
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const logger = createLogger('test', 'silent');

async function waitFor(predicate: () => Promise<boolean>) {
  for (let i = 0; i < 200 && !(await predicate()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('ProjectionRunner', () => {
  it('catches up with existing events before saying it is ready, then follows new ones', async () => {
    const store = new MemoryEventStore();
    await store.appendToStream('thing-1', [{ type: 'Named', data: { name: 'a' } }], { expectedRevision: 'no_stream', metadata });
    await store.appendToStream('other-1', [{ type: 'Ignored', data: {} }], { expectedRevision: 'no_stream', metadata });
    const readModels = new MemoryReadModelStore();
    const runner = new ProjectionRunner(store, readModels, logger);
    const things = runner.register(new AggregateView(view(1), readModels, store));
    await runner.start();
    await runner.whenReady();
    expect(await things.documents.get('1')).toMatchObject({ name: 'a' });
    await store.appendToStream('thing-2', [{ type: 'Named', data: { name: 'b' } }], { expectedRevision: 'no_stream', metadata });
    await waitFor(async () => (await things.documents.get('2')) !== null);
    expect(await things.documents.get('2')).toMatchObject({ name: 'b' });
    expect(await runner.lag()).toBe(0n);
    await runner.stop();
  });

  it('resumes from its checkpoint, and rebuilds from zero into a new collection when the version changes', async () => {
    const store = new MemoryEventStore();
    const readModels = new MemoryReadModelStore();
    await store.appendToStream('thing-1', [{ type: 'Named', data: { name: 'a' } }], { expectedRevision: 'no_stream', metadata });
    const first = new ProjectionRunner(store, readModels, logger);
    const v1 = first.register(new AggregateView(view(1), readModels, store));
    await first.start();
    await first.whenReady();
    await first.stop();
    expect(await readModels.collection('_checkpoints').get('things_v1')).toEqual({ _id: 'things_v1', position: '1' });

    await v1.documents.delete('1');
    const resumed = new ProjectionRunner(store, readModels, logger);
    resumed.register(new AggregateView(view(1), readModels, store));
    await resumed.start();
    await resumed.whenReady();
    expect(await v1.documents.get('1')).toBeNull();
    await resumed.stop();

    const upgraded = new ProjectionRunner(store, readModels, logger);
    const v2 = upgraded.register(new AggregateView(view(2), readModels, store));
    await upgraded.start();
    await upgraded.whenReady();
    expect(await v2.documents.get('1')).toMatchObject({ name: 'a' });
    await upgraded.stop();
  });

  it('is ready at once on an empty store', async () => {
    const store = new MemoryEventStore();
    const readModels = new MemoryReadModelStore();
    const runner = new ProjectionRunner(store, readModels, logger);
    runner.register(new AggregateView(view(1), readModels, store));
    await runner.start();
    expect(runner.isReady()).toBe(true);
    await runner.stop();
  });
});

/** A started runner with one projection of `thing` streams that takes 30 ms per commit, and the positions it applied. */
async function slowRunnerOfThings() {
  const store = new MemoryEventStore();
  const runner = new ProjectionRunner(store, new MemoryReadModelStore(), logger);
  const applied: bigint[] = [];
  runner.register({
    name: 'slow',
    version: 1,
    categories: ['thing'],
    init: async () => undefined,
    apply: async (commit: Commit) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      applied.push(commit.position);
    },
  });
  await runner.start();
  await runner.whenReady();
  return { store, runner, applied };
}

describe('ProjectionRunner.caughtUp', () => {
  it('resolves once every commit stored before the call is applied, and at once when none is pending', async () => {
    const { store, runner, applied } = await slowRunnerOfThings();
    await runner.caughtUp();
    await store.appendToStream('thing-1', [{ type: 'A', data: {} }], { expectedRevision: 'no_stream', metadata });
    await store.appendToStream('other-1', [{ type: 'B', data: {} }], { expectedRevision: 'no_stream', metadata });
    await store.appendToStream('thing-1', [{ type: 'C', data: {} }], { expectedRevision: 0, metadata });
    expect(applied).toEqual([]);
    await runner.caughtUp();
    expect(applied).toEqual([1n, 3n]);
    await runner.stop();
  });
});

describe('ProjectionRunner.reached', () => {
  it('waits until the commit at a position another replica wrote is applied, or answers false after its bound', async () => {
    const { store, runner, applied } = await slowRunnerOfThings();
    const written = await store.appendToStream('thing-1', [{ type: 'A', data: {} }], { expectedRevision: 'no_stream', metadata });
    expect(applied).toEqual([]);
    expect(await runner.reached(written.position, 2_000)).toBe(true);
    expect(applied).toEqual([written.position]);
    expect(await runner.reached(written.position, 2_000)).toBe(true);
    const started = Date.now();
    expect(await runner.reached(written.position + 5n, 100)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    await runner.stop();
  });
});

describe('ProjectionRunner.lagByReadModel', () => {
  it('tells how many commits each read model has still to apply, down to 0 once they are applied', async () => {
    const store = new MemoryEventStore();
    const runner = new ProjectionRunner(store, new MemoryReadModelStore(), logger);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const projection = (name: string, hold: boolean) => ({
      name,
      version: 1,
      categories: ['thing'],
      init: async () => undefined,
      apply: async () => {
        if (hold) await held;
      },
    });
    runner.register(projection('slow', true));
    runner.register(projection('quick', false));
    await runner.start();
    await runner.whenReady();
    expect(await runner.lagByReadModel()).toEqual(
      new Map([
        ['slow_v1', 0n],
        ['quick_v1', 0n],
      ]),
    );
    for (const id of ['1', '2', '3'])
      await store.appendToStream(`thing-${id}`, [{ type: 'Named', data: { name: id } }], {
        expectedRevision: 'no_stream',
        metadata,
      });
    await waitFor(async () => (await runner.lagByReadModel()).get('slow_v1') === 3n);
    expect(await runner.lagByReadModel()).toEqual(
      new Map([
        ['slow_v1', 3n],
        ['quick_v1', 3n],
      ]),
    );
    release();
    await runner.caughtUp();
    expect(await runner.lagByReadModel()).toEqual(
      new Map([
        ['slow_v1', 0n],
        ['quick_v1', 0n],
      ]),
    );
    await runner.stop();
  });
});

describe('ProjectionRunner: a commit it cannot apply', () => {
  /** A projection of `thing` streams that throws on events named `poison` (`failures` times, or always, or while `failing()`). */
  function brittle(failures = Number.POSITIVE_INFINITY, failing = () => true) {
    const applied: string[] = [];
    let failed = 0;
    return {
      applied,
      projection: {
        name: 'brittle',
        version: 2,
        categories: ['thing'],
        init: async () => undefined,
        apply: async (commit: Commit) => {
          const name = (commit.events[0]?.data as { name: string }).name;
          if (name === 'poison' && failing() && failed++ < failures) throw new RangeError('Maximum call stack size exceeded');
          applied.push(name);
        },
      },
    };
  }
  const named = (store: MemoryEventStore, id: string, name: string) =>
    store.appendToStream(`thing-${id}`, [{ type: 'Named', data: { name } }], { expectedRevision: 'any', metadata });
  function capturingLogger() {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    return { logger, lines };
  }

  // Regression (issue 16): the subscription retried such a commit forever, so later commits (an
  // API-key revocation) never reached the read models and a restarted service never became ready.
  it('parks it after a few tries, records, counts and logs it once, and goes on with the next commits', async () => {
    const store = new MemoryEventStore();
    await named(store, '1', 'before');
    const { events } = await named(store, '2', 'poison');
    await named(store, '3', 'after');
    const parked = new MemoryParkedCommits();
    const metrics = new Metrics('test');
    const { logger, lines } = capturingLogger();
    const { applied, projection } = brittle();
    const runner = new ProjectionRunner(store, new MemoryReadModelStore(), logger, {
      service: 'things',
      parkedCommits: parked,
      metrics,
      retryDelayMs: 1,
    });
    runner.register(projection);
    await runner.start();
    await runner.whenReady();
    expect(applied).toEqual(['before', 'after']);
    await named(store, '4', 'later');
    await waitFor(async () => applied.length === 3);
    expect(applied).toEqual(['before', 'after', 'later']);
    const event = events[0] as { id: string };
    expect(await parked.list()).toEqual([
      {
        service: 'things',
        read_model: 'brittle_v2',
        event_id: event.id,
        event_type: 'Named',
        stream: 'thing-2',
        revision: 0,
        position: '2',
        error: 'RangeError: Maximum call stack size exceeded',
        parked_at: expect.any(String),
      },
    ]);
    expect((await metrics.projectionParked.get()).values).toEqual([{ labels: { read_model: 'brittle_v2' }, value: 1 }]);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toEqual([expect.objectContaining({ read_model: 'brittle_v2', event_id: event.id, stream: 'thing-2' })]);
    expect(errors[0]).not.toHaveProperty('data');
    await runner.stop();
  });

  it('applies a commit that fails only once or twice, parking nothing', async () => {
    const store = new MemoryEventStore();
    await named(store, '1', 'poison');
    const parked = new MemoryParkedCommits();
    const { applied, projection } = brittle(2);
    const runner = new ProjectionRunner(store, new MemoryReadModelStore(), logger, { parkedCommits: parked, retryDelayMs: 1 });
    runner.register(projection);
    await runner.start();
    await runner.whenReady();
    expect(applied).toEqual(['poison']);
    expect(await parked.list()).toEqual([]);
    await runner.stop();
  });

  it('parks nothing while the read models do not answer: it waits for them, then applies the commit', async () => {
    const store = new MemoryEventStore();
    const readModels = new OutageReadModelStore();
    const parked = new MemoryParkedCommits();
    const { applied, projection } = brittle(Number.POSITIVE_INFINITY, () => readModels.down);
    const runner = new ProjectionRunner(store, readModels, logger, { parkedCommits: parked, retryDelayMs: 1 });
    runner.register(projection);
    await runner.start();
    readModels.down = true;
    await named(store, '1', 'poison');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(applied).toEqual([]);
    readModels.down = false;
    await waitFor(async () => applied.length > 0);
    expect(applied).toEqual(['poison']);
    expect(await parked.list()).toEqual([]);
    await runner.stop();
  });
});

/** In-memory read models whose reads fail while `down` (a database outage). */
class OutageReadModelStore implements ReadModelStore {
  down = false;
  private readonly inner = new MemoryReadModelStore();

  collection<T extends ReadModelDocument>(name: string) {
    const refused = async () => {
      throw new Error('connection refused');
    };
    return new Proxy(this.inner.collection<T>(name), {
      get: (target, property, receiver) => (property === 'get' && this.down ? refused : Reflect.get(target, property, receiver)),
    });
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}
