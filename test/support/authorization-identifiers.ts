import { randomBytes, randomUUID } from 'node:crypto';

export type Environment = 'sandbox' | 'production';
export type OrganizationName = 'a' | 'b';
export const environments: Environment[] = ['sandbox', 'production'];
export const otherEnvironment = (env: Environment): Environment => (env === 'sandbox' ? 'production' : 'sandbox');
export const otherOrganization = (org: OrganizationName): OrganizationName => (org === 'a' ? 'b' : 'a');

/** Where a request is generated: an environment and one of its two organizations. */
export interface Context {
  env: Environment;
  org: OrganizationName;
}

/** Who owns a value: an organization of an environment, or the environment itself. */
export interface Owner {
  env: Environment;
  org?: OrganizationName;
}

/** Values an organization owns (resources, secrets, messages of its identity provider). */
export const organizationKinds = [
  'organization',
  'partnerOrganization',
  'user',
  'userEmail',
  'admin',
  'directory',
  'scimToken',
  'scimUser',
  'scimGroup',
  'connection',
  'samlChallenge',
  'samlLogout',
  'testSignIn',
  'invitation',
  'onboardingSession',
  'userAccessToken',
  'passwordCode',
  'authorizationCode',
  'refreshToken',
  'relayCode',
  'samlLoginResponse',
  'samlLogoutRequest',
  'samlLogoutRequestPost',
  'password',
  'totpEnrollmentCode',
  'totpChallengeCode',
  'idpMetadata',
  'emailDomain',
] as const;
/** Values an environment owns. */
export const environmentKinds = [
  'redirectUri',
  'redirectUriId',
  'webhook',
  'webhookEvent',
  'relay',
  'metakey',
  'apiKey',
  'client',
  'otherClient',
  'onboardingPage',
] as const;
export type OrganizationKind = (typeof organizationKinds)[number];
export type EnvironmentKind = (typeof environmentKinds)[number];
export type Kind = OrganizationKind | EnvironmentKind;
export const isOrganizationKind = (kind: Kind): kind is OrganizationKind =>
  (organizationKinds as readonly string[]).includes(kind);

/**
 * What a filled field is to the matrix:
 * - `anchor` names the organization the request is about; its owner is the caller, it is never swapped;
 * - `identifier` names a resource or secret of a tenant: swapped for another tenant's in the cells;
 * - `credential` says who calls (an API key, a directory token, an onboarding session, an invitation token, an OAuth client);
 * - `value` is a plain value of the world that makes the request valid (a password, IdP metadata).
 */
export type Role = 'anchor' | 'identifier' | 'credential' | 'value';
export type Location = 'path' | 'query' | 'body';

export interface FieldRule {
  in: Location;
  name: string;
  /** Only on operations whose path matches (default: any). */
  path?: RegExp;
  kind: Kind;
  role: Role;
  /** Another kind the field also accepts (a user by id or by email): one more variant of the request. */
  alternative?: Kind;
  /** Only on operations of this method (default: any; asked only where the method is known). */
  method?: string;
}

/**
 * Which request fields name what, by name (and where a name means different things, by path).
 * A new operation whose fields are named like these is resolved without anyone writing a rule;
 * one with a path parameter no rule knows makes the guard test fail, naming it.
 */
export const fieldRules: FieldRule[] = [
  { in: 'path', name: 'org_domain', kind: 'organization', role: 'anchor' },
  { in: 'body', name: 'org_domain', kind: 'organization', role: 'anchor' },
  { in: 'body', name: 'partner_domain', kind: 'partnerOrganization', role: 'anchor' },
  { in: 'path', name: 'user_id', kind: 'user', role: 'identifier' },
  { in: 'path', name: 'id', path: /\/users\/\{id\}$/, method: 'get', kind: 'user', role: 'identifier', alternative: 'userEmail' },
  { in: 'path', name: 'id', path: /\/users\/\{id\}/, kind: 'user', role: 'identifier' },
  { in: 'body', name: 'user_email', kind: 'userEmail', role: 'identifier' },
  { in: 'body', name: 'email', path: /magic-link-challenge$/, kind: 'userEmail', role: 'identifier' },
  { in: 'path', name: 'email', path: /\/admins\/\{email\}(\/revoke-onboarding)?$/, kind: 'admin', role: 'identifier' },
  { in: 'path', name: 'directory_id', kind: 'directory', role: 'anchor' },
  { in: 'path', name: 'id', path: /\/Users\/\{id\}$/, kind: 'scimUser', role: 'identifier' },
  { in: 'path', name: 'id', path: /\/Groups\/\{id\}$/, kind: 'scimGroup', role: 'identifier' },
  { in: 'path', name: 'sp_id', kind: 'connection', role: 'anchor' },
  { in: 'query', name: 'request_id', path: /\/authorize$/, kind: 'samlChallenge', role: 'identifier' },
  { in: 'query', name: 'request_id', path: /\/sso\/saml\/\{sp_id\}\/logout$/, kind: 'samlLogout', role: 'identifier' },
  { in: 'body', name: 'request_id', path: /\/test-result$/, kind: 'testSignIn', role: 'identifier' },
  { in: 'body', name: 'token', path: /\/admin-invitations\//, kind: 'invitation', role: 'credential' },
  { in: 'body', name: 'access_token', kind: 'userAccessToken', role: 'identifier' },
  { in: 'body', name: 'password_code', kind: 'passwordCode', role: 'identifier' },
  { in: 'body', name: 'code', path: /^\/oauth\/token$/, kind: 'authorizationCode', role: 'identifier' },
  { in: 'body', name: 'refresh_token', kind: 'refreshToken', role: 'identifier' },
  { in: 'body', name: 'client_id', path: /^\/oauth\/token$/, kind: 'client', role: 'credential' },
  { in: 'body', name: 'SAMLResponse', path: /\/acs$/, kind: 'samlLoginResponse', role: 'identifier' },
  { in: 'query', name: 'SAMLRequest', path: /\/slo$/, kind: 'samlLogoutRequest', role: 'identifier' },
  { in: 'body', name: 'SAMLRequest', path: /\/slo$/, kind: 'samlLogoutRequestPost', role: 'identifier' },
  { in: 'path', name: 'id', path: /\/redirect_uris\/\{id\}/, kind: 'redirectUriId', role: 'identifier' },
  { in: 'body', name: 'redirect_uri', kind: 'redirectUri', role: 'identifier' },
  { in: 'path', name: 'id', path: /\/webhooks\/\{id\}/, kind: 'webhook', role: 'identifier' },
  { in: 'query', name: 'webhook_id', kind: 'webhook', role: 'identifier' },
  { in: 'path', name: 'id', path: /\/webhook-events\/\{id\}/, kind: 'webhookEvent', role: 'identifier' },
  { in: 'path', name: 'relay_id', kind: 'relay', role: 'identifier' },
  { in: 'query', name: 'name', path: /\/tokens\/user-metakeys$/, kind: 'metakey', role: 'identifier' },
  { in: 'body', name: 'plain_text', kind: 'password', role: 'value' },
  { in: 'query', name: 'code', path: /\/totp-enrollment\/validation\//, kind: 'totpEnrollmentCode', role: 'value' },
  { in: 'body', name: 'code', path: /\/totp-challenge\/validation\//, kind: 'totpChallengeCode', role: 'value' },
  { in: 'body', name: 'metadata', path: /\/admin-invitations\/sso\/connection$/, kind: 'idpMetadata', role: 'value' },
  { in: 'body', name: 'return_url', path: /\/admin-invitations\/sso\/test$/, kind: 'onboardingPage', role: 'value' },
  // An email domain is the organization's setting, not a secret: a request names its own organization's.
  { in: 'path', name: 'email_domain', kind: 'emailDomain', role: 'value' },
  { in: 'body', name: 'email_domain', path: /\/admin-invitations\/domains\//, kind: 'emailDomain', role: 'value' },
];

/** Path parameters that name no tenant's resource: the same constant for everyone. */
export const publicPathValues: { path: RegExp; name: string; value: string }[] = [
  { path: /\/ResourceTypes\/\{id\}$/, name: 'id', value: 'User' },
  { path: /\/Schemas\/\{id\}$/, name: 'id', value: 'urn:ietf:params:scim:schemas:core:2.0:User' },
];

export function ruleFor(location: Location, name: string, path: string, method?: string): FieldRule | undefined {
  return fieldRules.find(
    (rule) =>
      rule.in === location &&
      rule.name === name &&
      (rule.path?.test(path) ?? true) &&
      (rule.method === undefined || rule.method === method),
  );
}

const randomText = (length: number, alphabet: string) =>
  Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A value of the same shape that names nothing: what a tenant would send if the identifier did
 * not exist. "As if it did not exist" is the answer another tenant's identifier must get.
 */
export function strangerLike(value: string): string {
  if (uuidPattern.test(value)) return randomUUID();
  if (/^\d+$/.test(value)) return String(900_000_000 + Math.floor(Math.random() * 99_999_999));
  const email = /^[^@]+@(.+)$/.exec(value);
  if (email) return `nobody-${randomText(8, 'abcdefghijklmnopqrstuvwxyz')}@${email[1]}`;
  if (/^https?:\/\//.test(value)) {
    const url = new URL(value);
    return `${url.protocol}//nowhere-${randomText(8, 'abcdefghijklmnopqrstuvwxyz')}.matrix.example${url.pathname}`;
  }
  const prefix = /^[a-z]+_/.exec(value)?.[0] ?? '';
  const alphabet = /^[a-z0-9_-]+$/.test(value)
    ? 'abcdefghijklmnopqrstuvwxyz0123456789'
    : 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return prefix + randomText(Math.max(8, value.length - prefix.length), alphabet);
}
