import type { ProfileInput, SignInSession, UnregisteredSubject, User, UserMetakey } from '@sesame/contracts';

/** Claims a user's metadata may not take over: the registered JWT and OpenID Connect ones and ours. */
const reservedClaims = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'azp',
  'nonce',
  'auth_time',
  'amr',
  'acr',
  'at_hash',
  'sid',
  'email',
  'email_verified',
  'phone_number',
  'phone_number_verified',
  'jtt',
  'ver',
  'tnt',
  'org',
  'cid',
  'env',
  'dbs',
  'scp',
]);

const profileClaims = [
  'given_name',
  'family_name',
  'nickname',
  'preferred_username',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
] as const;

/**
 * The ID token claims beyond the common ones (OpenID Connect Core section 5.1): email, phone,
 * the profile fields that are set, `nonce` when the sign-in carried one, `auth_time`, `amr`,
 * and the user's metadata under each registered user metakey.
 */
export function idTokenClaims(user: User, metakeys: UserMetakey[], session: SignInSession): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const key of metakeys)
    if (!reservedClaims.has(key.name) && user.metadata[key.name] !== undefined) claims[key.name] = user.metadata[key.name];
  Object.assign(claims, profileClaimsOf(user.profile));
  if (user.phone_number !== null) {
    claims.phone_number = user.phone_number;
    claims.phone_number_verified = user.phone_number_verified;
  }
  return { ...claims, ...signInClaims(user.email, user.email_verified, session) };
}

/**
 * The ID token claims of a SAML subject let in without an account (`unregistered_users_allowed`):
 * the profile fields the assertion mapped, the assertion's attributes under `attributes`, and
 * the email as the identity provider asserted it.
 */
export function unregisteredIdTokenClaims(subject: UnregisteredSubject, session: SignInSession): Record<string, unknown> {
  return {
    ...profileClaimsOf(subject.profile),
    attributes: subject.attributes,
    ...signInClaims(subject.email, subject.email_verified, session),
  };
}

function profileClaimsOf(profile: ProfileInput): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const name of profileClaims) if (profile[name] !== null && profile[name] !== undefined) claims[name] = profile[name];
  const name = [profile.given_name, profile.family_name].filter(Boolean).join(' ');
  if (name) claims.name = name;
  return claims;
}

function signInClaims(email: string, emailVerified: boolean, session: SignInSession): Record<string, unknown> {
  return {
    email,
    email_verified: emailVerified,
    auth_time: session.authenticated_at,
    amr: [session.method],
    ...(session.nonce !== null ? { nonce: session.nonce } : {}),
  };
}
