import { MemoryEventStore } from '../event-store/memory.event-store';
import type { AppendOptions, NewEvent } from '../event-store/event-store.port';
import { handleCommand } from './command-handler';
import type { Decider } from './decider';
import { DomainError, fail } from './decider';

type Event = { type: 'Added'; data: { n: number } };
const counter: Decider<{ total: number }, { type: 'Add'; data: { n: number } }, Event> = {
  initialState: () => ({ total: 0 }),
  decide: (command, state) => {
    if (state.total + command.data.n > 10) fail({ kind: 'fields', fields: { n: ['too much'] } });
    return command.data.n === 0 ? [] : [{ type: 'Added', data: { n: command.data.n } }];
  },
  evolve: (state, event) => ({ total: state.total + event.data.n }),
};
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const add = (n: number) => ({ type: 'Add' as const, data: { n } });

describe('handleCommand', () => {
  it('appends the decided events and answers the new state, then runs afterCommit', async () => {
    const store = new MemoryEventStore();
    const seen: number[] = [];
    const deps = {
      eventStore: store,
      afterCommit: async (_s: string, r: { state: { total: number } }) => void seen.push(r.state.total),
    };
    expect((await handleCommand(deps, counter, 'counter-1', add(2), metadata)).state).toEqual({ total: 2 });
    const second = await handleCommand(deps, counter, 'counter-1', add(3), metadata);
    expect(second).toMatchObject({ state: { total: 5 }, revision: 1 });
    expect(seen).toEqual([2, 5]);
  });

  it('appends nothing when the decider decides nothing', async () => {
    const store = new MemoryEventStore();
    const result = await handleCommand({ eventStore: store }, counter, 'counter-1', add(0), metadata);
    expect(result).toEqual({ state: { total: 0 }, revision: -1, events: [] });
    expect(await store.headPosition()).toBe(0n);
  });

  it('lets a refused command through as a DomainError and writes nothing', async () => {
    const store = new MemoryEventStore();
    await expect(handleCommand({ eventStore: store }, counter, 'counter-1', add(11), metadata)).rejects.toBeInstanceOf(
      DomainError,
    );
    expect((await store.readStream('counter-1')).revision).toBe(-1);
  });

  it('decides again on fresh state after a concurrency conflict', async () => {
    const store = new MemoryEventStore();
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => handleCommand({ eventStore: store }, counter, 'counter-1', add(n), metadata)),
    );
    expect(
      results
        .map((r) => r.state.total)
        .sort((a, b) => a - b)
        .at(-1),
    ).toBe(10);
    expect((await store.readStream('counter-1')).events).toHaveLength(4);
  });

  it('applies the rules on the state that won: a conflicting command can become invalid', async () => {
    const store = new MemoryEventStore();
    await handleCommand({ eventStore: store }, counter, 'counter-1', add(5), metadata);
    const outcomes = await Promise.allSettled([
      handleCommand({ eventStore: store }, counter, 'counter-1', add(5), metadata),
      handleCommand({ eventStore: store }, counter, 'counter-1', add(5), metadata),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason as DomainError).error).toEqual({
      kind: 'fields',
      fields: { n: ['too much'] },
    });
  });

  it('answers 409 conflict once its attempts are exhausted', async () => {
    const store = new MemoryEventStore();
    const alwaysConflicting = Object.create(store) as MemoryEventStore;
    alwaysConflicting.appendToStream = async (stream: string, events: NewEvent[], options: AppendOptions) => {
      await store.appendToStream(stream, [{ type: 'Added', data: { n: 0 } }], { expectedRevision: 'any', metadata });
      return store.appendToStream(stream, events, options);
    };
    await expect(
      handleCommand({ eventStore: alwaysConflicting, attempts: 3 }, counter, 'counter-1', add(1), metadata),
    ).rejects.toMatchObject({
      error: { kind: 'error', code: 'conflict' },
    });
  });
});
