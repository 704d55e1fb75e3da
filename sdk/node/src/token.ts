import { apiErrorOf, readBody } from './errors';

export interface Credentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** What the token endpoint answers (the `Token` schema of the API). */
export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

/** Posts a grant to `/oauth/token` (JSON) and answers the token, or throws a `SesameApiError`. */
export async function postToken(baseUrl: string, grant: Record<string, string>): Promise<TokenAnswer> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(grant),
  });
  const body = await readBody(response);
  if (!response.ok) throw apiErrorOf(response.status, response.headers, body);
  return body as TokenAnswer;
}

/**
 * The client-credentials access token of an API key, cached until `refreshMarginMs` before it
 * expires. Concurrent callers share one in-flight fetch; `invalidate` drops a token the API refused.
 */
export class TokenCache {
  private cached: { token: string; refreshAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly credentials: Credentials,
    private readonly refreshMarginMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<string> {
    if (this.cached && this.now() < this.cached.refreshAt) return Promise.resolve(this.cached.token);
    this.inFlight ??= this.fetch().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Forgets `token` (if it is still the cached one), so that the next `get` fetches another. */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async fetch(): Promise<string> {
    const { baseUrl, clientId, clientSecret } = this.credentials;
    const requestedAt = this.now();
    const answer = await postToken(baseUrl, {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const lifetimeMs = answer.expires_in * 1_000;
    const refreshAt = requestedAt + Math.max(lifetimeMs - this.refreshMarginMs, lifetimeMs / 2);
    this.cached = { token: answer.access_token, refreshAt };
    return answer.access_token;
  }
}
