import { JSONCodec, connect } from 'nats';
import type { ConnectionOptions } from 'nats';
import type { ConsumerMessages, NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import type { ApiKeyEvent } from '@sesame/contracts';
import { stopConsuming } from '@sesame/platform/messaging';
import { jetStreamName } from '@sesame/platform/stores';
import type { Logger } from '@sesame/platform';

const codec = JSONCodec<{ events: { type: string; data: unknown }[] }>();
/**
 * Beyond an access token's lifetime a revocation no longer matters: every token its key obtained
 * before it has expired, and none after. The margin covers clocks and a token issued by a replica
 * whose read model had not seen the revocation yet.
 */
const marginMs = 5 * 60_000;
/**
 * How often the reader opens a new consumer and reads the revocations again. An ordered consumer
 * placed on a replica that is catching up was seen in cluster runs to stay silent for minutes
 * while reporting nothing pending; the reader may read only API-key subjects, so it cannot check
 * its consumer against the stream. Starting over bounds how long a revocation can go unheard.
 */
const renewConsumerMs = 30_000;

/**
 * The API keys revoked within an access token's lifetime, as every gateway replica must know them
 * (DESIGN.md section 3: the revocation is an event). An ordered JetStream consumer reads the
 * `apiKey` commits of auth-methods' events stream from a token lifetime ago: a (re)started gateway
 * loads every revocation that still matters before it says it is loaded, then hears each new one
 * as soon as it is committed (the CLI appends it; with EventStoreDB the relay publishes it).
 * The set holds only the revocations of one token lifetime. Every `renewMs` the consumer is
 * replaced by a new one that reads them again (`renewConsumerMs`).
 */
export class RevokedApiKeys {
  private readonly revokedAt = new Map<string, number>();
  private readonly rememberMs: number;
  private loaded = false;
  private stopped = false;
  private messages?: ConsumerMessages;
  private running?: Promise<void>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    /** How long an access token lives (`SESAME_ACCESS_TOKEN_TTL_SECONDS`), in ms. */
    tokenLifetimeMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly ownsConnection = false,
    private readonly renewMs = renewConsumerMs,
  ) {
    this.rememberMs = tokenLifetimeMs + marginMs;
  }

  static async connect(
    options: ConnectionOptions,
    prefix: string,
    tokenLifetimeMs: number,
    logger: Logger,
  ): Promise<RevokedApiKeys> {
    const nc = await connect(options);
    return new RevokedApiKeys(nc, prefix, tokenLifetimeMs, logger, Date.now, true);
  }

  /** True once the revocations committed before the start are known. */
  isLoaded(): boolean {
    return this.loaded;
  }

  has(clientId: string): boolean {
    return this.revokedAt.has(clientId);
  }

  /** Reads revocations in the background until stopped. */
  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await stopConsuming(this.nc.isClosed() ? undefined : this.messages, this.running);
    if (this.ownsConnection && !this.nc.isClosed()) await this.nc.close();
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      let renewal: NodeJS.Timeout | undefined;
      try {
        const consumer = await this.nc.jetstream().consumers.get(jetStreamName(this.prefix, 'auth-methods'), {
          filterSubjects: `${eventSubjectPrefix(this.prefix, 'auth-methods')}.events.apiKey.>`,
          opt_start_time: new Date(this.now() - this.rememberMs).toISOString(),
        });
        const messages = await consumer.consume({ max_messages: 256 });
        this.messages = messages;
        renewal = setTimeout(() => void messages.close().catch(() => undefined), this.renewMs);
        if ((await consumer.info(true)).num_pending === 0) this.loaded = true;
        attempt = 0;
        for await (const message of messages) {
          this.apply(codec.decode(message.data).events as ApiKeyEvent[]);
          if (message.info.pending === 0) this.loaded = true;
          if (this.stopped) break;
        }
      } catch (error) {
        if (this.stopped || this.nc.isClosed()) break;
        // Usually auth-methods has not created its events stream yet.
        if (attempt > 2) this.logger.warn({ err: error }, 'API-key revocations not readable yet; retrying');
        // Not ready until loaded: retry every second at most until then.
        await new Promise((resolve) => setTimeout(resolve, Math.min(this.loaded ? 5_000 : 1_000, 250 * 2 ** attempt)));
      } finally {
        clearTimeout(renewal);
      }
    }
  }

  private apply(events: ApiKeyEvent[]): void {
    const oldest = this.now() - this.rememberMs;
    for (const event of events)
      if (event.type === 'ApiKeyRevoked') this.revokedAt.set(event.data.client_id, Date.parse(event.data.at));
    for (const [clientId, at] of this.revokedAt) if (at < oldest) this.revokedAt.delete(clientId);
  }
}
