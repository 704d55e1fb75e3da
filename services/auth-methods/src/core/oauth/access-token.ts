import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { ActiveSigningKey } from '../signing-keys/signing-keys';

/** `jtt` claim: which kind of token this is (DESIGN.md section 5). */
export type TokenKind = 'access' | 'openid' | 'api_key';

export interface AccessTokenClaims {
  issuer: string;
  audience: string;
  subject: string;
  kind: TokenKind;
  tenant: string;
  clientId: string;
  environment: string;
  scopes: string[];
  ttlSeconds: number;
  extra?: Record<string, unknown>;
}

/** An RS256 JWT with the claims of DESIGN.md section 5, `kid` in the header. */
export async function signToken(claims: AccessTokenClaims, key: ActiveSigningKey, now = new Date()): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    jtt: claims.kind,
    ver: 1,
    tnt: claims.tenant,
    org: claims.tenant,
    cid: claims.clientId,
    env: claims.environment,
    dbs: claims.environment,
    scp: claims.scopes,
    ...claims.extra,
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(claims.issuer)
    .setSubject(claims.subject)
    .setAudience(claims.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + claims.ttlSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
}
