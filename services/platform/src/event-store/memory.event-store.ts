import { ConcurrencyError } from './event-store.port';
import type {
  AppendOptions,
  AppendResult,
  Commit,
  EventStore,
  NewEvent,
  ReadStreamOptions,
  ReadStreamResult,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './event-store.port';
import { deliverWithRetry } from './deliver';
import { recordEvents } from './new-events';

/** In-process event store for unit tests. Passes the same contract suite as the real stores. */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly log: Commit[] = [];
  private readonly listeners = new Set<() => void>();

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    const events = this.streams.get(stream) ?? [];
    return { revision: events.length - 1, events: structuredClone(events.slice(Math.max(0, options.fromRevision ?? 0))) };
  }

  async appendToStream(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const existing = this.streams.get(stream) ?? [];
    const actual = existing.length - 1;
    const { expectedRevision } = options;
    if (expectedRevision === 'no_stream' && actual !== -1) throw new ConcurrencyError(stream, expectedRevision, actual);
    if (typeof expectedRevision === 'number' && expectedRevision !== actual)
      throw new ConcurrencyError(stream, expectedRevision, actual);
    const recorded = recordEvents(stream, events, actual + 1, options.metadata);
    this.streams.set(stream, [...existing, ...recorded]);
    const position = BigInt(this.log.length + 1);
    this.log.push({ position, events: structuredClone(recorded) });
    for (const listener of this.listeners) listener();
    return { nextRevision: actual + recorded.length, position, events: recorded };
  }

  subscribeToAll({ from, onCommit, onPosition }: SubscribeOptions): Subscription {
    let stopped = false;
    let next = Number(from);
    let wake: (() => void) | undefined;
    const notify = () => wake?.();
    this.listeners.add(notify);
    const loop = async () => {
      while (!stopped) {
        while (!stopped && next < this.log.length) {
          const commit = this.log[next] as Commit;
          if (
            !(await deliverWithRetry(
              () => onCommit(structuredClone(commit)),
              () => stopped,
            ))
          )
            break;
          next += 1;
          onPosition?.(commit.position);
        }
        if (stopped) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    };
    const running = loop();
    return {
      stop: async () => {
        stopped = true;
        this.listeners.delete(notify);
        wake?.();
        await running;
      },
    };
  }

  async headPosition(): Promise<bigint> {
    return BigInt(this.log.length);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
