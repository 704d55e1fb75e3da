import { jwtVerify } from 'jose';
import { catalogueError, environmentSchema } from '@sesame/contracts';
import type { Environment, Scope } from '@sesame/contracts';
import { ApiError } from '../http/api-error';
import type { JwksCache } from './jwks-cache';

export interface Principal {
  clientId: string;
  environment: Environment;
  scopes: string[];
}

interface Verified {
  principal: Principal;
  /** Expiry (ms since epoch, clock tolerance included). */
  expiresAt: number;
}

/** The API keys revoked since the oldest token still valid was issued (`RevokedApiKeys`). */
export interface Revocations {
  isLoaded(): boolean;
  has(clientId: string): boolean;
}

const unauthorized = () => new ApiError(catalogueError('unauthorized'));
const clockToleranceSeconds = 5;
const cacheLimit = 10_000;

/**
 * Bearer verification for the management API: an RS256 access token of an API key (`jtt`
 * api_key), issued by us for our audience, unexpired, holding the route's privilege. Every
 * failure answers the same 401 (SPEC.md section 8).
 *
 * Clients reuse a token for hours, so a token whose signature and claims were verified once is
 * remembered (by its exact text) until it expires: the RSA verification is not repeated per
 * request. Expiry, privileges and the revocation of its key are still checked on every request;
 * until the revocations are loaded, no token is accepted (503).
 */
export class Authenticator {
  private readonly verified = new Map<string, Verified>();

  constructor(
    private readonly jwks: JwksCache,
    private readonly issuer: string,
    private readonly audience: string,
    private readonly revocations: Revocations,
  ) {}

  async authenticate(authorization: string | undefined, scope: Scope | undefined, now = Date.now()): Promise<Principal> {
    const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/i.exec(authorization ?? '');
    if (!match) throw unauthorized();
    const token = match[1] as string;
    let entry = this.verified.get(token);
    if (entry && entry.expiresAt <= now) {
      this.verified.delete(token);
      entry = undefined;
    }
    entry ??= await this.verify(token, now);
    if (!this.revocations.isLoaded()) throw new ApiError(catalogueError('service_unavailable'));
    if (this.revocations.has(entry.principal.clientId)) throw unauthorized();
    if (scope && !entry.principal.scopes.includes(scope)) throw unauthorized();
    return entry.principal;
  }

  private async verify(token: string, now: number): Promise<Verified> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks.getKey, {
        algorithms: ['RS256'],
        issuer: this.issuer,
        audience: this.audience,
        clockTolerance: clockToleranceSeconds,
        currentDate: new Date(now),
      }));
    } catch {
      throw unauthorized();
    }
    const environment = environmentSchema.safeParse(payload.env);
    const scopes = Array.isArray(payload.scp) ? (payload.scp as unknown[]).filter((s): s is string => typeof s === 'string') : [];
    if (payload.jtt !== 'api_key' || !environment.success || typeof payload.cid !== 'string' || typeof payload.exp !== 'number')
      throw unauthorized();
    const entry = {
      principal: { clientId: payload.cid, environment: environment.data, scopes },
      expiresAt: (payload.exp + clockToleranceSeconds) * 1_000,
    };
    if (this.verified.size >= cacheLimit) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, entry);
    return entry;
  }
}
