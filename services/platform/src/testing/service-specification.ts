import type { RpcMeta, RpcReply, ServiceName } from '@sesame/contracts';
import type { BaseConfig } from '../config/config';
import type {
  AppendOptions,
  AppendResult,
  DomainEvent,
  EventStore,
  NewEvent,
  ReadStreamOptions,
} from '../event-store/event-store.port';
import { MemoryEventStore } from '../event-store/memory.event-store';
import { createLogger } from '../logging/logger';
import type { RpcClient } from '../messaging/nats-rpc';
import { RpcRouter } from '../messaging/rpc-router';
import { Metrics } from '../metrics/metrics';
import { ProjectionRunner } from '../projections/projection-runner';
import { MemoryReadModelStore } from '../read-model/memory.read-model';
import { ServiceRuntime } from '../runtime/service-runtime';

/** A call the service made to another service's subject, as the RPC client was given it. */
export interface OutgoingCall {
  subject: string;
  input: unknown;
}

/** Answers to the calls the service makes to other services, by subject (the other services' side). */
export type CallTable = Record<string, (input: any, meta: RpcMeta) => RpcReply | Promise<RpcReply>>;

/** An event appended during `when`: the stream it went to, its type and data. */
export interface NewStreamEvent {
  stream: string;
  type: string;
  data: unknown;
}

export interface Outcome {
  reply: RpcReply;
  /** The events appended while the request was handled, in order. */
  events: NewStreamEvent[];
  /** The calls to other services, in order. */
  calls: OutgoingCall[];
}

export interface ServiceSpecificationOptions<Config extends BaseConfig> {
  service: ServiceName;
  config: Config;
  /** Registers the service's handlers and projections, as its `main` does (its package's assembly function). */
  assemble(runtime: ServiceRuntime, rpc: RpcClient): void | Promise<void>;
  /** How other services answer; a call to a subject not in it fails the specification. */
  calls?: CallTable;
}

const givenMetadata = { correlationId: 'given', occurredAt: '2026-01-01T00:00:00.000Z' };

/**
 * Given/when/then for one service: its real RPC router, handlers and projections over the in-memory
 * event store and read models (the adapters that pass the stores' contract suites), the calls to other
 * services answered by a declared table, no NATS.
 *
 *   const spec = await serviceSpecification({ service, config, assemble, calls });
 *   await spec.given({ [stream]: [created] }).when(subject, input, meta).then({ reply, events, calls });
 *   const { reply } = await spec.request(subject, input, meta); // arranges state through the handlers
 */
export async function serviceSpecification<Config extends BaseConfig>(options: ServiceSpecificationOptions<Config>) {
  const store = new RecordingEventStore(new MemoryEventStore());
  const calls: OutgoingCall[] = [];
  const unanswered: string[] = [];
  const rpc = {
    async request(subject: string, request: { meta: RpcMeta; input: unknown }): Promise<RpcReply> {
      calls.push({ subject, input: request.input });
      const answer = options.calls?.[subject];
      if (!answer) {
        unanswered.push(subject);
        throw new Error(`No answer declared for ${subject}`);
      }
      return answer(request.input, request.meta);
    },
    async close() {},
  } as unknown as RpcClient;
  const runtime = inMemoryRuntime(options.service, options.config, store);
  await options.assemble(runtime, rpc);
  await runtime.projections.start();

  /** Appends events to streams (as another replica or an earlier version stored them); the projections apply them. */
  const append = async (streams: Record<string, DomainEvent[]>, environment?: RpcMeta['environment']) => {
    for (const [stream, events] of Object.entries(streams))
      await store.appendToStream(stream, events, {
        expectedRevision: 'any',
        metadata: { ...givenMetadata, ...(environment ? { environment } : {}) },
      });
    await runtime.projections.caughtUp();
  };
  /** Sends one request to the router, as the RPC server would, and records what it did. */
  const request = async (subject: string, input: unknown, meta: Partial<RpcMeta> = {}): Promise<Outcome> => {
    store.recorded.length = 0;
    calls.length = 0;
    unanswered.length = 0;
    const reply = await runtime.router.dispatch(subject, { meta: { correlationId: 'when', ...meta }, input });
    await runtime.projections.caughtUp();
    if (unanswered.length > 0) throw new Error(`The service called subjects with no declared answer: ${unanswered.join(', ')}`);
    return { reply, events: store.recorded.splice(0), calls: calls.splice(0) };
  };
  const when =
    (before: () => Promise<void>) =>
    (subject: string, input: unknown, meta: Partial<RpcMeta> = {}) => ({
      /** The reply, the new events and the outgoing calls, exactly (`events` and `calls` default to none). */
      async then(expected: Expectation): Promise<Outcome> {
        if (typeof expected === 'function')
          throw new Error('when(...) is not awaited: end it with .then({ reply, events, calls })');
        await before();
        const outcome = await request(subject, input, meta);
        expect(outcome).toEqual({ reply: expected.reply, events: expected.events ?? [], calls: expected.calls ?? [] });
        return outcome;
      },
    });

  return {
    runtime,
    /** An earlier request through the real handlers (to arrange state), its outcome unchecked. */
    request,
    given: (streams: Record<string, DomainEvent[]>, environment?: RpcMeta['environment']) => ({
      when: when(() => append(streams, environment)),
    }),
    when: when(async () => {}),
  };
}

export interface Expectation {
  reply: unknown;
  events?: unknown[];
  calls?: unknown[];
}

/** The event store, keeping what was appended since the last `when`. */
class RecordingEventStore implements EventStore {
  readonly recorded: NewStreamEvent[] = [];

  constructor(private readonly inner: EventStore) {}

  readStream(stream: string, options?: ReadStreamOptions) {
    return this.inner.readStream(stream, options);
  }

  async appendToStream(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const result = await this.inner.appendToStream(stream, events, options);
    this.recorded.push(...result.events.map(({ type, data }) => ({ stream, type, data })));
    return result;
  }

  subscribeToAll(...args: Parameters<EventStore['subscribeToAll']>) {
    return this.inner.subscribeToAll(...args);
  }

  headPosition() {
    return this.inner.headPosition();
  }

  close() {
    return this.inner.close();
  }
}

/** A ServiceRuntime on in-memory stores whose NATS connection refuses any use (handlers never touch it). */
function inMemoryRuntime(service: ServiceName, config: BaseConfig, eventStore: EventStore): ServiceRuntime {
  const logger = createLogger(service, 'silent');
  const readModels = new MemoryReadModelStore();
  const projections = new ProjectionRunner(eventStore, readModels, logger, { service });
  const metrics = new Metrics(service);
  const noNats = new Proxy(
    {},
    {
      get: (_, property) => {
        throw new Error(`A service specification has no NATS (nc.${String(property)})`);
      },
    },
  );
  const tracing = { shutdown: async () => {} };
  const args = [
    service,
    config,
    logger,
    noNats,
    eventStore,
    readModels,
    projections,
    new RpcRouter(logger, metrics),
    metrics,
    tracing,
  ];
  // The constructor is private to the runtime's own `create`, which connects to NATS.
  return Reflect.construct(ServiceRuntime, args) as ServiceRuntime;
}
