import { createLocalJWKSet } from 'jose';
import type { JSONWebKeySet, JWTHeaderParameters, FlattenedJWSInput, CryptoKey } from 'jose';
import { subjects } from '@sesame/contracts';
import { TypedRpcClient } from '@sesame/platform';
import type { Logger, RpcTransport } from '@sesame/platform';

const minRefreshGapMs = 5_000;

/**
 * The public signing keys, fetched from auth-methods over NATS and kept in memory: verifying a
 * token costs no round trip. Refreshed periodically, and at once (at most every 5 s) when a
 * token names a key we do not know yet (a rotation).
 */
export class JwksCache {
  private keySet?: ReturnType<typeof createLocalJWKSet>;
  private fetchedAt = 0;
  private inFlight?: Promise<void>;
  private readonly rpc: TypedRpcClient;

  constructor(
    transport: RpcTransport,
    private readonly logger: Logger,
    private readonly refreshEveryMs: number,
  ) {
    this.rpc = new TypedRpcClient(transport);
  }

  isLoaded(): boolean {
    return this.keySet !== undefined;
  }

  async refresh(): Promise<void> {
    this.inFlight ??= (async () => {
      try {
        const keys = await this.rpc.call(
          subjects.authMethods.jwks,
          { params: {}, query: {}, body: {} },
          { correlationId: 'jwks-refresh' },
        );
        this.keySet = createLocalJWKSet(keys as JSONWebKeySet);
        this.fetchedAt = Date.now();
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  /** Keeps the keys fresh in the background until stopped: every second until first loaded. */
  start(): () => void {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const tick = async () => {
      try {
        await this.refresh();
      } catch (error) {
        if (this.keySet) this.logger.warn({ err: error }, 'JWKS refresh failed');
      }
      if (stopped) return;
      timer = setTimeout(() => void tick(), this.keySet ? this.refreshEveryMs : 1_000);
      timer.unref();
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  /** Key resolver for jose's jwtVerify. */
  getKey = async (header: JWTHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    if (!this.keySet) await this.refresh();
    try {
      return await (this.keySet as ReturnType<typeof createLocalJWKSet>)(header, token);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || Date.now() - this.fetchedAt < minRefreshGapMs)
        throw error;
      await this.refresh();
      return (this.keySet as ReturnType<typeof createLocalJWKSet>)(header, token);
    }
  };
}
