import { ClientNats, ServerNats } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { wireSubject } from '@sesame/contracts';
import type { RpcReply, RpcRequest } from '@sesame/contracts';
import type { RpcRouter } from './rpc-router';

export interface NatsRpcOptions {
  url: string;
  /** Deployment prefix prepended to every subject. */
  prefix: string;
  /** Queue group: replicas of one service share the load. */
  queue: string;
  gracePeriodMs?: number;
}

/**
 * Nest's NATS server, closing by draining: it stops taking messages, waits until the requests
 * in flight are answered (at most the grace period), then disconnects.
 */
class DrainingServerNats extends ServerNats {
  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly router: RpcRouter,
    private readonly gracePeriodMs: number,
  ) {
    super(options);
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
    {
      servers: [options.url],
      queue: options.queue,
      name: `${options.prefix}.${options.queue}`,
      gracefulShutdown: false,
      maxReconnectAttempts: -1,
    },
    router,
    options.gracePeriodMs ?? 5_000,
  );
  for (const subject of router.subjects()) {
    server.addHandler(wireSubject(options.prefix, subject), async (request: RpcRequest) => router.dispatch(subject, request));
  }
  return server;
}

export class RpcUnavailableError extends Error {
  constructor(subject: string, cause: unknown) {
    super(`No answer on ${subject}: ${String((cause as Error)?.message ?? cause)}`);
    this.name = 'RpcUnavailableError';
  }
}

/** Request/reply to the services over NATS (Nest's NATS client). */
export class RpcClient {
  private constructor(
    private readonly client: ClientNats,
    private readonly prefix: string,
    private readonly timeoutMs: number,
  ) {}

  static async connect(options: { url: string; prefix: string; timeoutMs: number; name: string }): Promise<RpcClient> {
    const client = new ClientNats({ servers: [options.url], name: options.name, maxReconnectAttempts: -1 });
    await client.connect();
    return new RpcClient(client, options.prefix, options.timeoutMs);
  }

  async request<T = unknown>(subject: string, request: RpcRequest, timeoutMs = this.timeoutMs): Promise<RpcReply<T>> {
    const wire = wireSubject(this.prefix, subject);
    try {
      return await firstValueFrom(this.client.send<RpcReply<T>, RpcRequest>(wire, request).pipe(timeout(timeoutMs)));
    } catch (error) {
      throw new RpcUnavailableError(wire, error);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
