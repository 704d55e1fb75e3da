import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';

export interface TokenVerifierOptions {
  /** The public URL of the Sesame gateway. */
  baseUrl: string;
  /** The organization domain (tenant) whose tokens to accept: `sesame` (or `SESAME_TENANT`) for API-key tokens. */
  organization: string;
  /** The audience your application expects in `aud`. */
  audience: string | string[];
  /** Accepted clock skew in seconds (default 5). */
  clockToleranceSeconds?: number;
}

/** The claims of a Sesame token (see the JWT validation guide). */
export interface SesameTokenClaims extends JWTPayload {
  email?: string;
  jtt?: string;
  [claim: string]: unknown;
}

/**
 * A verifier of the access and ID tokens Sesame issues for one organization: signature against
 * the tenant JWKS (`<baseUrl>/t/<organization>/.well-known`, fetched once and cached by jose),
 * issuer `<baseUrl>/t/<organization>`, audience and expiry. Throws jose's errors when invalid.
 */
export function createTokenVerifier(options: TokenVerifierOptions) {
  const issuer = `${options.baseUrl.replace(/\/+$/, '')}/t/${encodeURIComponent(options.organization)}`;
  const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known`));
  return async (token: string): Promise<SesameTokenClaims> => {
    const { payload } = await jwtVerify(token, jwks, {
      issuer,
      audience: options.audience,
      clockTolerance: options.clockToleranceSeconds ?? 5,
      requiredClaims: ['exp', 'iat'],
    });
    return payload as SesameTokenClaims;
  };
}
