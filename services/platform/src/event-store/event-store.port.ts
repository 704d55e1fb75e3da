import type { Actor, Environment, TenantRef } from '@sesame/contracts';

export interface EventMetadata {
  correlationId: string;
  causationId?: string;
  /** The environment of the request (also `tenant.environment` when it has one; kept for the readers of older events). */
  environment?: Environment;
  /**
   * The organization the events belong to, on every event of something an organization owns
   * (stamped by `Aggregate` from the events or the aggregate's state: see `tenantOfEvents`).
   * Absent from events recorded before it was added: `tenantOfEvent` reads their data instead.
   */
  tenant?: TenantRef;
  /** Who caused it (`actorOf` reads it; a string on events recorded before actors were structured). */
  actor?: Actor | string;
  occurredAt: string;
  /** W3C trace context of the request that appended it, so its consumers continue the trace. */
  traceparent?: string;
  tracestate?: string;
}

/** A domain event before it is stored. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export interface NewEvent extends DomainEvent {
  /** Defaults to a random uuid; used as the idempotency key downstream. */
  id?: string;
}

export type RecordedEvent<E extends DomainEvent = DomainEvent> = E & {
  id: string;
  stream: string;
  /** 0-based position of the event in its stream. */
  revision: number;
  metadata: EventMetadata;
};

/** `no_stream`: the stream must not exist; a number: the revision of its last event; `any`: no check. */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  metadata: EventMetadata;
}

export interface AppendResult {
  /** Revision of the last appended event. */
  nextRevision: number;
  position: bigint;
  events: RecordedEvent[];
}

export interface ReadStreamResult {
  /** Revision of the last event, -1 when the stream does not exist. */
  revision: number;
  /** The stream's events in order: all of them, or those from `fromRevision` on. */
  events: RecordedEvent[];
}

export interface ReadStreamOptions {
  /** Read only the events from this revision on (the stream's `revision` is answered all the same). */
  fromRevision?: number;
}

/** The events one command appended to one stream, in order, at one global position. */
export interface Commit {
  position: bigint;
  events: RecordedEvent[];
}

export interface SubscribeOptions {
  /** Last position already processed (exclusive); `0n` reads from the beginning. */
  from: bigint;
  onCommit(commit: Commit): Promise<void>;
  /** Called as the subscription progresses past positions that carry none of our commits. */
  onPosition?(position: bigint): void;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventStore {
  readStream(stream: string, options?: ReadStreamOptions): Promise<ReadStreamResult>;
  /** Appends all events atomically or none; throws ConcurrencyError when the expectation fails. */
  appendToStream(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /** Every commit of this store after `from`, in order, then live ones, until stopped. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** Position of the newest commit of this store (`0n` when empty). */
  headPosition(): Promise<bigint>;
  close(): Promise<void>;
}

export class ConcurrencyError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual?: number,
  ) {
    super(`Wrong expected revision on ${stream}: expected ${String(expected)}, actual ${actual ?? 'unknown'}`);
    this.name = 'ConcurrencyError';
  }
}
