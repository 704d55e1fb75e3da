import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import type { AppendExpectedRevision, JSONType, ResolvedEvent } from '@eventstore/db-client';
import { ConcurrencyError } from './event-store.port';
import type {
  AppendOptions,
  AppendResult,
  EventMetadata,
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

export interface EventStoreDbOptions {
  connectionString: string;
  /** Prefix of this store's stream names (`<namespace>:<stream>`), e.g. `sesame.identity`. */
  namespace: string;
  onError?(error: unknown): void;
}

/**
 * Event store on EventStoreDB: `appendToStream` with `expectedRevision`; the global position is
 * the commit position in `$all`; the subscription filters on this store's stream prefix.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly prefix: string;

  constructor(private readonly options: EventStoreDbOptions) {
    this.client = EventStoreDBClient.connectionString(options.connectionString);
    this.prefix = `${options.namespace}:`;
  }

  private esdbStream(stream: string) {
    return `${this.prefix}${stream}`;
  }

  private toRecorded(resolved: ResolvedEvent): RecordedEvent | null {
    const event = resolved.event;
    if (!event || !event.streamId.startsWith(this.prefix) || event.type.startsWith('$')) return null;
    return {
      id: event.id,
      type: event.type,
      data: event.data,
      stream: event.streamId.slice(this.prefix.length),
      revision: Number(event.revision),
      metadata: event.metadata as unknown as EventMetadata,
    };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    const from = Math.max(0, options.fromRevision ?? 0);
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(this.esdbStream(stream), {
        fromRevision: from === 0 ? START : BigInt(from),
        direction: FORWARDS,
      })) {
        const recorded = this.toRecorded(resolved);
        if (recorded) events.push(recorded);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { revision: -1, events: [] };
      throw error;
    }
    const last = events.at(-1);
    return { revision: last ? last.revision : from === 0 ? -1 : await this.lastRevision(stream), events };
  }

  /** The revision of the stream's last event (-1: no such stream), for a read from past its end. */
  private async lastRevision(stream: string): Promise<number> {
    try {
      for await (const resolved of this.client.readStream(this.esdbStream(stream), {
        fromRevision: END,
        direction: BACKWARDS,
        maxCount: 1,
      }))
        return Number(resolved.event?.revision ?? -1);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return -1;
  }

  async appendToStream(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const { expectedRevision } = options;
    let current = typeof expectedRevision === 'number' ? expectedRevision : -1;
    if (expectedRevision === 'any') current = (await this.readStream(stream)).revision;
    const recorded = recordEvents(stream, events, current + 1, options.metadata);
    if (recorded.length === 0) return { nextRevision: current, position: 0n, events: [] };
    const expected: AppendExpectedRevision =
      expectedRevision === 'no_stream' ? NO_STREAM : expectedRevision === 'any' ? ANY : BigInt(expectedRevision);
    try {
      const result = await this.client.appendToStream(
        this.esdbStream(stream),
        recorded.map((event) =>
          jsonEvent({
            id: event.id,
            type: event.type,
            data: event.data as JSONType,
            metadata: event.metadata as unknown as JSONType,
          }),
        ),
        { expectedRevision: expected },
      );
      return {
        nextRevision: Number(result.nextExpectedRevision),
        position: result.position?.commit ?? 0n,
        events: recorded,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) throw new ConcurrencyError(stream, expectedRevision);
      throw error;
    }
  }

  subscribeToAll({ from, onCommit, onPosition }: SubscribeOptions): Subscription {
    const subscription = this.client.subscribeToAll({
      fromPosition: from === 0n ? START : { commit: from, prepare: from },
      filter: streamNameFilter({
        prefixes: [this.prefix],
        checkpointReached: (_subscription, position) => onPosition?.(position.commit),
      }),
    });
    let stopped = false;
    const running = (async () => {
      try {
        for await (const resolved of subscription) {
          const recorded = this.toRecorded(resolved);
          const position = resolved.event?.position?.commit;
          if (!recorded || position === undefined) continue;
          const commit = { position, events: [recorded] };
          if (
            !(await deliverWithRetry(
              () => onCommit(commit),
              () => stopped,
              this.options.onError,
            ))
          )
            break;
          onPosition?.(position);
        }
      } catch (error) {
        this.options.onError?.(error);
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        await subscription.unsubscribe();
        await running;
      },
    };
  }

  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      return resolved.event?.position?.commit ?? 0n;
    }
    return 0n;
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
