import { setTimeout as delay } from 'node:timers/promises';
import { ServerNats } from '@nestjs/microservices';
import type { NatsContext } from '@nestjs/microservices';
import { ErrorCode, JSONCodec, connect } from 'nats';
import type { ConnectionOptions, Msg, MsgHdrs, NatsConnection } from 'nats';
import { wireSubject } from '@sesame/contracts';
import type { RpcReply, RpcRequest } from '@sesame/contracts';
import type { IdempotentAnswers } from './idempotent-answers';
import type { RpcRouter } from './rpc-router';
import { RpcUnavailableError } from './rpc-unavailable';
import { SpanKind, contextOfHeaders, inSpan, traceHeaders } from '../tracing/spans';

export interface NatsRpcOptions {
  /** The process's NATS connection options (`natsConnectionOptions`). */
  nats: ConnectionOptions;
  /** Deployment prefix prepended to every subject. */
  prefix: string;
  /** Queue group: replicas of one service share the load. */
  queue: string;
  gracePeriodMs?: number;
  /** Stores the answers of requests sent with `Idempotency-Key` before replying. */
  answers?: IdempotentAnswers;
}

/**
 * Nest's NATS server, answering requests only, and closing by draining: it stops taking messages,
 * waits until the requests in flight are answered (at most the grace period), then disconnects.
 */
class DrainingServerNats extends ServerNats {
  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly router: RpcRouter,
    private readonly gracePeriodMs: number,
  ) {
    super(options);
  }

  /**
   * A request comes on the subscribed subject with a reply inbox. Anything else is dropped: a message
   * without a reply (Nest would run it as an event) or a JetStream consumer's delivery pushed onto a
   * service subject (it carries its stream's subject and a `$JS.ACK` reply), which would otherwise let
   * whoever may write to some stream and create a push consumer on it replay a stored message as
   * another process's command.
   */
  override async handleMessage(channel: string, message: Msg): Promise<unknown> {
    if (message.subject !== channel || !message.reply?.startsWith('_INBOX.')) {
      this.logger.warn(`Dropped a message on ${channel} that is not a request (subject ${message.subject})`);
      return;
    }
    return super.handleMessage(channel, message);
  }

  /**
   * The handler's route is the subject itself: every handler is added under a plain subject
   * (`addHandler`). Nest's own first tries the pattern as JSON, so every request threw and caught
   * a SyntaxError: 11% of identity's CPU serving GET user by id.
   */
  override getRouteFromPattern(pattern: string): string {
    return pattern;
  }

  override async close(): Promise<void> {
    // Nest keeps its subscriptions private; they are plain nats.js subscriptions.
    const subscriptions = (this as unknown as { subscriptions: { unsubscribe(): void }[] }).subscriptions;
    for (const subscription of subscriptions) subscription.unsubscribe();
    await this.router.idle(this.gracePeriodMs);
    await super.close();
  }
}

/**
 * A Nest NATS transport serving the router's subjects (as `<prefix>.<subject>`) in a queue
 * group. Handlers are added in code rather than with decorators so that the prefix is runtime
 * configuration (tests run side by side on one NATS server under their own prefixes).
 */
export function createRpcServer(router: RpcRouter, options: NatsRpcOptions): ServerNats {
  const server = new DrainingServerNats(
    { ...options.nats, queue: options.queue, gracefulShutdown: false },
    router,
    options.gracePeriodMs ?? 5_000,
  );
  for (const subject of router.subjects()) {
    const attributes = { 'rpc.system': 'nats', 'rpc.method': subject };
    server.addHandler(wireSubject(options.prefix, subject), (request: RpcRequest, context?: NatsContext) =>
      inSpan(subject, { kind: SpanKind.SERVER, attributes, parent: contextOfHeaders(context?.getHeaders()) }, async () => {
        const answer = await router.dispatch(subject, request);
        return options.answers ? options.answers.store(subject, request?.meta, answer) : answer;
      }),
    );
  }
  return server;
}

/** How long a request that no process serves waits before it is sent again. */
const noResponderPauseMs = 100;

/** What Nest's NATS server answers a request with (its packet, `id` echoed). */
interface ReplyPacket<T> {
  response?: RpcReply<T>;
  err?: unknown;
}

/**
 * Request/reply to the services over NATS, in Nest's packet (`{ pattern, data, id }`, answered
 * `{ response, isDisposed, id }`) so that Nest's NATS server (`createRpcServer`) serves it, sent
 * with nats.js's own request: every reply comes on the connection's one inbox subscription. Nest's
 * NATS client subscribed a new inbox for each request and unsubscribed it after (three protocol
 * operations, and a subscription added to and removed from nats-server's interest per request).
 */
export class RpcClient {
  private readonly codec = JSONCodec();
  /** Nest's server answers only a packet with an id (without one it is an event); each request's is its own. */
  private sent = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly timeoutMs: number,
  ) {}

  /** `nats`: the process's NATS connection options (`natsConnectionOptions`). */
  static async connect(options: { nats: ConnectionOptions; prefix: string; timeoutMs: number }): Promise<RpcClient> {
    return new RpcClient(await connect(options.nats), options.prefix, options.timeoutMs);
  }

  async request<T = unknown>(subject: string, request: RpcRequest, timeoutMs = this.timeoutMs): Promise<RpcReply<T>> {
    const wire = wireSubject(this.prefix, subject);
    return inSpan(subject, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'nats', 'rpc.method': subject } }, async () => {
      // The request's trace goes along in NATS headers (W3C trace context).
      const headers = traceHeaders();
      const packet = this.codec.encode({ pattern: wire, data: request, id: String(++this.sent) });
      const reply = await this.send<T>(wire, packet, Date.now() + timeoutMs, headers);
      if (reply.err !== undefined || reply.response === undefined)
        throw new RpcUnavailableError(wire, reply.err ?? 'an answer without a response');
      return reply.response;
    });
  }

  /**
   * Sends `packet` until an answer or `deadline`. While no process serves the subject (a service
   * restarting), nats-server says so at once ("no responders"): the request is sent again every
   * `noResponderPauseMs` until the deadline, as a request waiting for its answer would wait.
   */
  private async send<T>(wire: string, packet: Uint8Array, deadline: number, headers?: MsgHdrs): Promise<ReplyPacket<T>> {
    for (;;) {
      try {
        const timeout = Math.max(1, deadline - Date.now());
        const message = await this.nc.request(wire, packet, { timeout, ...(headers ? { headers } : {}) });
        return this.codec.decode(message.data) as ReplyPacket<T>;
      } catch (error) {
        const noResponders = (error as { code?: unknown }).code === ErrorCode.NoResponders;
        if (!noResponders || Date.now() + noResponderPauseMs >= deadline) throw new RpcUnavailableError(wire, error);
        await delay(noResponderPauseMs);
      }
    }
  }

  async close(): Promise<void> {
    await this.nc.close();
  }
}
