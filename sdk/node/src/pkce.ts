import { createHash, randomBytes } from 'node:crypto';
import { postToken } from './token';
import type { TokenAnswer } from './token';

/** A new PKCE `code_verifier` (RFC 7636 section 4.1): 43 characters of base64url from 32 random bytes. */
export function createCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** The S256 `code_challenge` of a verifier: BASE64URL(SHA-256(verifier)) (RFC 7636 section 4.2). */
export function codeChallengeS256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A verifier and its challenge, ready for a sign-in request (`code_challenge_method: 'S256'`). */
export function createPkce() {
  const codeVerifier = createCodeVerifier();
  return { codeVerifier, codeChallenge: codeChallengeS256(codeVerifier), codeChallengeMethod: 'S256' as const };
}

export interface AuthorizationCodeExchange {
  baseUrl: string;
  /** The one-time code a sign-in answered (password, magic link, TOTP, SSO redirect). */
  code: string;
  clientId: string;
  /** The API key secret (a backend); leave it out with a `codeVerifier` (a browser or mobile app). */
  clientSecret?: string;
  codeVerifier?: string;
  redirectUri?: string;
}

/** Exchanges an authorization code at `POST /oauth/token`: the user's access, ID and refresh tokens. */
export function exchangeAuthorizationCode(exchange: AuthorizationCodeExchange): Promise<TokenAnswer> {
  const grant: Record<string, string> = { grant_type: 'authorization_code', code: exchange.code, client_id: exchange.clientId };
  if (exchange.clientSecret) grant.client_secret = exchange.clientSecret;
  if (exchange.codeVerifier) grant.code_verifier = exchange.codeVerifier;
  if (exchange.redirectUri) grant.redirect_uri = exchange.redirectUri;
  return postToken(exchange.baseUrl.replace(/\/+$/, ''), grant);
}
