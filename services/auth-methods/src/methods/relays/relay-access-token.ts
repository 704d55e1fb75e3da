import { createLocalJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import type { Environment } from '@sesame/contracts';
import type { SigningKeys } from '../../core/signing-keys/signing-keys';

export interface RelayedUser {
  user_id: string;
  organization_domain: string;
}

/**
 * Who a user access token (issued by a sign-in of this service) names, or null when it is not a
 * current, valid user access token of `environment`: signature against our keys, expiry, kind
 * (`jtt` access), environment and the issuer of its organization.
 */
export async function verifyUserAccessToken(
  token: string,
  environment: Environment,
  signingKeys: Pick<SigningKeys, 'jwks'>,
  issuerOf: (organizationDomain: string) => string,
): Promise<RelayedUser | null> {
  try {
    const keys = createLocalJWKSet((await signingKeys.jwks()) as unknown as JSONWebKeySet);
    const { payload } = await jwtVerify(token, keys, { algorithms: ['RS256'] });
    const organization = payload.org;
    if (payload.jtt !== 'access' || payload.env !== environment || typeof organization !== 'string' || !payload.sub) return null;
    if (payload.iss !== issuerOf(organization)) return null;
    return { user_id: payload.sub, organization_domain: organization };
  } catch {
    return null;
  }
}
