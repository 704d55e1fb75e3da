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

const unauthorized = () => new ApiError(catalogueError('unauthorized'));

/**
 * Bearer verification for the management API: an RS256 access token of an API key (`jtt`
 * api_key), issued by us for our audience, unexpired, holding the route's privilege. Every
 * failure answers the same 401 (SPEC.md section 8).
 */
export class Authenticator {
  constructor(
    private readonly jwks: JwksCache,
    private readonly issuer: string,
    private readonly audience: string,
  ) {}

  async authenticate(authorization: string | undefined, scope: Scope | undefined): Promise<Principal> {
    const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/i.exec(authorization ?? '');
    if (!match) throw unauthorized();
    let payload;
    try {
      ({ payload } = await jwtVerify(match[1] as string, this.jwks.getKey, {
        algorithms: ['RS256'],
        issuer: this.issuer,
        audience: this.audience,
        clockTolerance: 5,
      }));
    } catch {
      throw unauthorized();
    }
    const environment = environmentSchema.safeParse(payload.env);
    const scopes = Array.isArray(payload.scp) ? (payload.scp as unknown[]).filter((s): s is string => typeof s === 'string') : [];
    if (payload.jtt !== 'api_key' || !environment.success || typeof payload.cid !== 'string') throw unauthorized();
    if (scope && !scopes.includes(scope)) throw unauthorized();
    return { clientId: payload.cid, environment: environment.data, scopes };
  }
}
