import { MemoryEventStore } from '../event-store/memory.event-store';
import type { AppendOptions, NewEvent } from '../event-store/event-store.port';
import { Aggregate, loadAggregate, readAggregateStream } from './aggregate';
import type { AggregateDeps, Loaded, Step } from './aggregate';
import { DomainError, fail } from './decider';
import type { Decider } from './decider';
import { reservationStream, reserveUnique } from './reservations';
import { revisionClaimStream } from './revision-claims';

/** A page whose title is unique and whose text is mirrored by another service (`remote`). */
type Page = { version: number; title: string; text: string; mirror: string | null } | null;
type PageEvent = { type: 'PageWritten'; data: { title: string; text: string; mirror: string } };
type PageCommand = { type: 'WritePage'; data: { title: string; text: string; mirror: string; if_match?: number } };

/** The precondition of every write: an expected version, when given, is the page's. */
const requireVersion = (page: Page, ifMatch: number | undefined) => {
  if (ifMatch !== undefined && page?.version !== ifMatch) fail({ kind: 'error', code: 'conflict', message: 'stale version' });
};
const pages: Decider<Page, PageCommand, PageEvent> = {
  initialState: () => null,
  decide: (command, page) => {
    requireVersion(page, command.data.if_match);
    const { title, text, mirror } = command.data;
    return page?.title === title && page.text === text ? [] : [{ type: 'PageWritten', data: { title, text, mirror } }];
  },
  evolve: (page, event) => ({ version: (page?.version ?? 0) + 1, ...event.data }),
};
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const stream = (id: string) => `page-${id}`;
const titleOf = (title: string, id: string) => ({ kind: 'pageTitle', value: title, owner: stream(id) });

/** The other service: records each call, can be told to refuse or to wait. */
class Remote {
  readonly calls: string[] = [];
  refuse = false;
  gate: Promise<void> = Promise.resolve();
  async mirror(text: string): Promise<string> {
    this.calls.push(text);
    await this.gate;
    if (this.refuse) throw new Error('remote refused');
    return `mirror:${text}`;
  }
}

function setup(deps: Partial<AggregateDeps<Page>> = {}) {
  const store = new MemoryEventStore();
  const remote = new Remote();
  const aggregate = new Aggregate<Page, PageCommand, PageEvent>({ eventStore: store, ...deps }, { decider: pages, stream });
  /** Writes `text` under `title` if the page is at `ifMatch`: check → take the title → mirror remotely → commit. */
  const write = (id: string, title: string, text: string, ifMatch?: number): Step<Page, PageCommand, Page> => ({
    check: ({ state }: Loaded<Page>) => {
      requireVersion(state, ifMatch);
      return state;
    },
    take: (page) =>
      page?.title === title
        ? []
        : [{ reservation: titleOf(title, id), taken: { kind: 'error', code: 'conflict', message: 'taken' } }],
    act: async () => ({
      type: 'WritePage',
      data: { title, text, mirror: await remote.mirror(text), ...(ifMatch === undefined ? {} : { if_match: ifMatch }) },
    }),
    release: (page, committed) => (page && page.title !== committed.state?.title ? [titleOf(page.title, id)] : []),
  });
  return { store, remote, aggregate, write };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
};

const reservedBy = async (store: MemoryEventStore, title: string) => {
  const { events } = await store.readStream(reservationStream('pageTitle', title));
  const last = events.at(-1) as { type: string; data: { owner: string } } | undefined;
  return last?.type === 'UniqueValueReserved' ? last.data.owner : null;
};

describe('Aggregate.execute: check → act → commit', () => {
  it('loads the typed state, acts once the check holds, appends and answers the new state', async () => {
    const { store, remote, aggregate, write } = setup();
    const first = await aggregate.execute('1', write('1', 'Home', 'hello'), metadata, { newStream: true });
    expect(first).toMatchObject({ revision: 0, state: { version: 1, title: 'Home', text: 'hello', mirror: 'mirror:hello' } });
    await aggregate.execute('1', write('1', 'Start', 'bye', 1), metadata);
    expect(await aggregate.load('1')).toEqual({
      revision: 1,
      state: { version: 2, title: 'Start', text: 'bye', mirror: 'mirror:bye' },
    });
    expect(remote.calls).toEqual(['hello', 'bye']);
    expect(await reservedBy(store, 'Start')).toBe('page-1');
    expect(await reservedBy(store, 'Home')).toBeNull();
  });

  it('refused by its check, it has no effect: no call, no reservation, no claim, no event', async () => {
    const { store, remote, aggregate, write } = setup();
    await aggregate.execute('1', write('1', 'Home', 'hello'), metadata, { newStream: true });
    const head = await store.headPosition();
    await expect(aggregate.execute('1', write('1', 'Other', 'stale', 7), metadata)).rejects.toMatchObject({
      error: { code: 'conflict', message: 'stale version' },
    });
    expect(remote.calls).toEqual(['hello']);
    expect(await store.headPosition()).toBe(head);
    expect(await reservedBy(store, 'Other')).toBeNull();
  });

  it('does not act when a unique value is taken, and answers its refusal', async () => {
    const { store, remote, aggregate, write } = setup();
    await reserveUnique(store, titleOf('Home', 'other'), metadata);
    await expect(aggregate.execute('1', write('1', 'Home', 'hello'), metadata, { newStream: true })).rejects.toMatchObject({
      error: { message: 'taken' },
    });
    expect(remote.calls).toEqual([]);
    expect((await store.readStream('page-1')).revision).toBe(-1);
  });

  it('appends nothing when the other service fails, and gives back what it took and its claim', async () => {
    const { store, remote, aggregate, write } = setup();
    await aggregate.execute('1', write('1', 'Home', 'hello'), metadata, { newStream: true });
    remote.refuse = true;
    await expect(aggregate.execute('1', write('1', 'Start', 'bye', 1), metadata)).rejects.toThrow('remote refused');
    expect((await store.readStream('page-1')).revision).toBe(0);
    expect(await reservedBy(store, 'Start')).toBeNull();
    expect((await store.readStream(revisionClaimStream('page-1', 1))).events.map((event) => event.type)).toEqual([
      'RevisionClaimed',
      'RevisionClaimReleased',
    ]);
    remote.refuse = false;
    await aggregate.execute('1', write('1', 'Start', 'bye', 1), metadata);
    expect((await aggregate.load('1')).state).toMatchObject({ version: 2, title: 'Start' });
  });

  it('gives back what it took and its claim when the command decides nothing', async () => {
    const { store, aggregate, write } = setup();
    await aggregate.execute('1', write('1', 'Home', 'hello'), metadata, { newStream: true });
    const same: Step<Page, PageCommand, Page> = {
      check: ({ state }) => state,
      take: () => [{ reservation: titleOf('Spare', '1'), taken: { kind: 'error', code: 'conflict' } }],
      act: async () => ({ type: 'WritePage', data: { title: 'Home', text: 'hello', mirror: 'm' } }),
    };
    expect(await aggregate.execute('1', same, metadata)).toEqual({
      state: expect.objectContaining({ version: 1 }),
      revision: 0,
      events: [],
    });
    expect(await reservedBy(store, 'Spare')).toBeNull();
    expect((await store.readStream(revisionClaimStream('page-1', 1))).events.at(-1)?.type).toBe('RevisionClaimReleased');
  });

  it('does it all again (load, check, act, commit) on the new state after a revision conflict', async () => {
    const { store, remote, aggregate, write } = setup();
    await aggregate.execute('1', write('1', 'Home', 'v1'), metadata, { newStream: true });
    // Another writer (no claim: a plain append) commits while this step is acting.
    let release!: () => void;
    remote.gate = new Promise((resolve) => (release = resolve));
    const pending = aggregate.execute('1', write('1', 'Home', 'mine'), metadata);
    await until(() => remote.calls.length === 2);
    await store.appendToStream('page-1', [{ type: 'PageWritten', data: { title: 'Home', text: 'theirs', mirror: 'x' } }], {
      expectedRevision: 0,
      metadata,
    });
    release();
    const result = await pending;
    expect(result).toMatchObject({ revision: 2, state: { version: 3, text: 'mine' } });
    expect(remote.calls).toEqual(['v1', 'mine', 'mine']);
  });

  it('answers 409 conflict once its attempts are exhausted', async () => {
    const store = new MemoryEventStore();
    const racing = Object.create(store) as MemoryEventStore;
    racing.appendToStream = async (name: string, events: NewEvent[], options: AppendOptions) => {
      if (name === 'page-1')
        await store.appendToStream(name, [{ type: 'PageWritten', data: { title: 'T', text: 'x', mirror: 'x' } }], {
          expectedRevision: 'any',
          metadata,
        });
      return store.appendToStream(name, events, options);
    };
    const aggregate = new Aggregate({ eventStore: racing, attempts: 3 }, { decider: pages, stream });
    const step: Step<Page, PageCommand, Page> = {
      check: ({ state }) => state,
      act: async () => ({ type: 'WritePage', data: { title: 'T', text: 'y', mirror: 'y' } }),
    };
    await expect(aggregate.execute('1', step, metadata)).rejects.toMatchObject({ error: { kind: 'error', code: 'conflict' } });
  });

  it('makes a concurrent step wait for the one acting: two writes expecting the same version, one acts, the other is refused before acting', async () => {
    const { store, remote, aggregate, write } = setup();
    await aggregate.execute('1', write('1', 'Home', 'v1'), metadata, { newStream: true });
    let release!: () => void;
    remote.gate = new Promise((resolve) => (release = resolve));
    const first = aggregate.execute('1', write('1', 'Home', 'first', 1), metadata);
    await until(() => remote.calls.length === 2);
    const second = aggregate.execute('1', write('1', 'Home', 'second', 1), metadata);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(remote.calls).toEqual(['v1', 'first']);
    release();
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { state: { text: 'first', version: 2 } } });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { error: { message: 'stale version' } } });
    expect(remote.calls).toEqual(['v1', 'first']);
    expect((await store.readStream('page-1')).revision).toBe(1);
  });

  it('answers 409 conflict when another step holds the aggregate longer than it waits, and takes over a claim whose holder is gone', async () => {
    let clock = Date.parse('2026-01-01T00:00:00.000Z');
    const { store, aggregate, write } = setup({ claimWaitMs: 50, claimGraceMs: 10_000, now: () => clock });
    await aggregate.execute('1', write('1', 'Home', 'v1'), metadata, { newStream: true });
    // A holder that crashed after claiming revision 1.
    await store.appendToStream(
      revisionClaimStream('page-1', 1),
      [{ type: 'RevisionClaimed', data: { stream: 'page-1', revision: 1, owner: 'gone' } }],
      { expectedRevision: 'no_stream', metadata: { ...metadata, occurredAt: new Date(clock).toISOString() } },
    );
    const waiting = aggregate.execute('1', write('1', 'Home', 'v2'), metadata);
    setTimeout(() => (clock += 100), 20);
    await expect(waiting).rejects.toMatchObject({ error: { kind: 'error', code: 'conflict' } });
    clock += 10_001;
    await aggregate.execute('1', write('1', 'Home', 'v2'), metadata);
    expect((await aggregate.load('1')).state).toMatchObject({ text: 'v2', version: 2 });
  });
});

describe('Aggregate.handle: a command decided on the state alone', () => {
  it('on an exclusive aggregate, waits for the step acting on it rather than make it act on a state that moved', async () => {
    const store = new MemoryEventStore();
    const remote = new Remote();
    const aggregate = new Aggregate<Page, PageCommand, PageEvent>(
      { eventStore: store },
      { decider: pages, stream, exclusive: true },
    );
    await aggregate.handle('1', { type: 'WritePage', data: { title: 'Home', text: 'v1', mirror: 'm' } }, metadata);
    let open!: () => void;
    remote.gate = new Promise((resolve) => (open = resolve));
    const step: Step<Page, PageCommand, Page> = {
      check: ({ state }) => {
        requireVersion(state, 1);
        return state;
      },
      act: async () => ({
        type: 'WritePage',
        data: { title: 'Home', text: 'step', mirror: await remote.mirror('step'), if_match: 1 },
      }),
    };
    const acting = aggregate.execute('1', step, metadata);
    await until(() => remote.calls.length === 1);
    const plain = aggregate.handle('1', { type: 'WritePage', data: { title: 'Home', text: 'plain', mirror: 'm' } }, metadata);
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    expect(await acting).toMatchObject({ revision: 1, state: { text: 'step' } });
    expect(await plain).toMatchObject({ revision: 2, state: { text: 'plain' } });
    expect(remote.calls).toEqual(['step']);
  });

  it('reserves values only for a command the decider accepts, and gives them back if nothing is committed', async () => {
    const { store, aggregate } = setup();
    const command = (ifMatch?: number): PageCommand => ({
      type: 'WritePage',
      data: { title: 'Home', text: 'x', mirror: 'm', ...(ifMatch === undefined ? {} : { if_match: ifMatch }) },
    });
    const take = () => [{ reservation: titleOf('Home', '1'), taken: { kind: 'error' as const, code: 'conflict' as const } }];
    await expect(aggregate.handle('1', command(3), metadata, { take })).rejects.toBeInstanceOf(DomainError);
    expect(await reservedBy(store, 'Home')).toBeNull();
    expect(await aggregate.handle('1', command(), metadata, { take })).toMatchObject({ revision: 0 });
    expect(await reservedBy(store, 'Home')).toBe('page-1');
  });

  it('decides once, on the loaded state', async () => {
    const decide = jest.fn(pages.decide);
    const aggregate = new Aggregate<Page, PageCommand, PageEvent>(
      { eventStore: new MemoryEventStore() },
      { decider: { ...pages, decide }, stream },
    );
    const take = () => [{ reservation: titleOf('Home', '1'), taken: { kind: 'error' as const, code: 'conflict' as const } }];
    await aggregate.handle('1', { type: 'WritePage', data: { title: 'Home', text: 'x', mirror: 'm' } }, metadata, { take });
    expect(decide).toHaveBeenCalledTimes(1);
  });

  it('decides on the state the caller has just read without reading it again, and reads it again when it was stale', async () => {
    const { store, aggregate } = setup();
    const reads = jest.spyOn(store, 'readStream');
    const write = (text: string, if_match?: number): PageCommand => ({
      type: 'WritePage',
      data: { title: 'Home', text, mirror: 'm', ...(if_match === undefined ? {} : { if_match }) },
    });
    await aggregate.handle('3', write('v1'), metadata);
    const loaded = await aggregate.load('3');
    reads.mockClear();
    expect(await aggregate.handle('3', write('v2', 1), metadata, { loaded })).toMatchObject({ revision: 1 });
    expect(reads).not.toHaveBeenCalled();
    // `loaded` is now stale (version 1, revision 0): the append is refused, the stream read again, decided again.
    expect(await aggregate.handle('3', write('v3'), metadata, { loaded })).toMatchObject({
      revision: 2,
      state: { version: 3, text: 'v3' },
    });
    expect(reads).toHaveBeenCalledTimes(1);
    await expect(aggregate.handle('3', write('v4', 1), metadata, { loaded })).rejects.toMatchObject({
      error: { message: 'stale version' },
    });
  });

  it('holds what the command holds once its values are taken, and gives it back when nothing is committed', async () => {
    const { store, aggregate } = setup();
    const held: string[] = [];
    const hold = async () => {
      held.push('place');
      return async () => void held.pop();
    };
    const write = (title: string, ifMatch?: number): PageCommand => ({
      type: 'WritePage',
      data: { title, text: 'x', mirror: 'm', ...(ifMatch === undefined ? {} : { if_match: ifMatch }) },
    });
    const take = (title: string) => () => [
      { reservation: titleOf(title, '2'), taken: { kind: 'error' as const, code: 'conflict' as const, message: 'taken' } },
    ];
    await reserveUnique(store, titleOf('Taken', 'other'), metadata);
    // Refused by the decider, or a value taken: nothing held.
    await expect(aggregate.handle('2', write('Home', 4), metadata, { hold })).rejects.toBeInstanceOf(DomainError);
    await expect(aggregate.handle('2', write('Taken'), metadata, { take: take('Taken'), hold })).rejects.toMatchObject({
      error: { message: 'taken' },
    });
    expect(held).toEqual([]);
    // The append fails: given back.
    const failing = new Aggregate<Page, PageCommand, PageEvent>(
      {
        eventStore: Object.assign(Object.create(store) as MemoryEventStore, {
          appendToStream: async () => fail({ kind: 'error', code: 'conflict' }),
        }),
      },
      { decider: pages, stream },
    );
    await expect(failing.handle('2', write('Home'), metadata, { hold })).rejects.toBeInstanceOf(DomainError);
    expect(held).toEqual([]);
    // Committed: kept.
    await aggregate.handle('2', write('Home'), metadata, { hold });
    expect(held).toEqual(['place']);
    // A command that changes nothing holds nothing.
    await aggregate.handle('2', write('Home'), metadata, { hold });
    expect(held).toEqual(['place']);
  });
});

describe('reading an aggregate', () => {
  it("answers its events typed as its decider's, and its state now or at a revision", async () => {
    const store = new MemoryEventStore();
    const type = { decider: pages, stream };
    const aggregate = new Aggregate<Page, PageCommand, PageEvent>({ eventStore: store }, type);
    for (const text of ['v1', 'v2'])
      await aggregate.handle('1', { type: 'WritePage', data: { title: 'Home', text, mirror: 'm' } }, metadata);
    const { revision, events } = await readAggregateStream(store, type, '1');
    const texts: string[] = events.map((event) => event.data.text);
    expect({ revision, texts }).toEqual({ revision: 1, texts: ['v1', 'v2'] });
    expect(await loadAggregate(store, type, '1')).toEqual(await aggregate.load('1'));
    expect(await loadAggregate(store, type, '1', { upTo: 0 })).toEqual({
      revision: 0,
      state: { version: 1, title: 'Home', text: 'v1', mirror: 'm' },
    });
    expect(await loadAggregate(store, type, 'none')).toEqual({ revision: -1, state: null });
  });
});

describe('loading an aggregate again: the state folded last time, and the events since', () => {
  /** The memory store, recording the revision each read started from. */
  function readsOf(store: MemoryEventStore) {
    const froms: (number | undefined)[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = (name, options) => {
      froms.push(options?.fromRevision);
      return readStream(name, options);
    };
    return froms;
  }
  const write = (text: string) => ({ type: 'WritePage' as const, data: { title: 'Home', text, mirror: 'm' } });

  it('reads only the events appended since, and folds them onto the state it kept', async () => {
    const store = new MemoryEventStore();
    const aggregate = new Aggregate<Page, PageCommand, PageEvent>({ eventStore: store }, { decider: pages, stream });
    for (const text of ['v1', 'v2', 'v3']) await aggregate.handle('1', write(text), metadata);
    const froms = readsOf(store);
    // Given the page loaded (its third write decided on revision 1), and a fourth write by another process
    await aggregate.load('1');
    await store.appendToStream('page-1', [{ type: 'PageWritten', data: { title: 'Home', text: 'v4', mirror: 'm' } }], {
      expectedRevision: 2,
      metadata,
    });
    // When it is loaded again, twice
    const loaded = await aggregate.load('1');
    const again = await aggregate.load('1');
    // Then each read starts after the revision the one before kept
    expect(froms).toEqual([2, 3, 4]);
    expect(loaded).toEqual({ revision: 3, state: { version: 4, title: 'Home', text: 'v4', mirror: 'm' } });
    expect(again).toEqual(loaded);
  });

  it('folds to the same state as a whole read, and a command decided on it appends at the right revision', async () => {
    const store = new MemoryEventStore();
    const aggregate = new Aggregate<Page, PageCommand, PageEvent>({ eventStore: store }, { decider: pages, stream });
    for (let i = 0; i < 20; i++) {
      await aggregate.load('2');
      await aggregate.handle('2', write(`v${i}`), metadata);
    }
    const whole = await readAggregateStream(store, { decider: pages, stream }, '2');
    expect(await aggregate.load('2')).toEqual({ revision: 19, state: whole.events.reduce(pages.evolve, pages.initialState()) });
    expect(whole.events.map((event) => event.revision)).toEqual([...Array(20).keys()]);
  });

  it('answers a frozen state: code that changed it in place would throw rather than change the next load', async () => {
    const store = new MemoryEventStore();
    const aggregate = new Aggregate<Page, PageCommand, PageEvent>({ eventStore: store }, { decider: pages, stream });
    await aggregate.handle('3', write('v1'), metadata);
    const { state } = await aggregate.load('3');
    expect(() => {
      (state as { text: string }).text = 'changed';
    }).toThrow(TypeError);
    expect((await aggregate.load('3')).state?.text).toBe('v1');
  });

  it('reads the whole stream again when it is behind the state kept (a store that lost its tail)', async () => {
    const store = new MemoryEventStore();
    const aggregate = new Aggregate<Page, PageCommand, PageEvent>({ eventStore: store }, { decider: pages, stream });
    for (const text of ['v1', 'v2']) await aggregate.handle('4', write(text), metadata);
    await aggregate.load('4');
    // The stream now holds one event (as a store restored from an older backup would)
    const shorter = (await store.readStream('page-4')).events.slice(0, 1);
    (store as unknown as { streams: Map<string, unknown> }).streams.set('page-4', shorter);
    expect(await aggregate.load('4')).toEqual({ revision: 0, state: { version: 1, title: 'Home', text: 'v1', mirror: 'm' } });
  });
});
