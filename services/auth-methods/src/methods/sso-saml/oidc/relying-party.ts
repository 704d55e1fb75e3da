import { createHash } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { custom, errors, generators, Issuer } from 'openid-client';
import { blockedTargetMessage, hostOf, isBlockedAddress, publicOnlyLookup } from '@sesame/platform/http';
import type { BaseClient, IdTokenClaims, UserinfoResponse } from 'openid-client';
import type { SignInRefusal } from '../flows/refusals';
import type { ValidatedAssertion } from '../saml/response-validator';

/** How long a discovery document is kept: a key rotation at the IdP is seen within this time. */
const discoveryTtlMs = 60_000;
let publicOnly = false;
/**
 * In production mode no call to an identity provider (discovery, keys, token, userinfo) may reach a
 * loopback, link-local or private address, as for webhooks: an issuer is whatever URL a customer's
 * IT admin typed. Off in development, where providers run on this machine.
 */
export function identityProvidersPublicOnly(enabled: boolean): void {
  publicOnly = enabled;
}
/** No call to an identity provider holds a sign-in longer than this; each resolves through the guard above. */
custom.setHttpOptionsDefaults({
  timeout: 5_000,
  lookup: ((hostname: string, options: object, callback: never) =>
    publicOnly ? publicOnlyLookup(hostname, options, callback) : dnsLookup(hostname, options, callback)) as never,
});

/** An identity provider URL whose host is an IP literal (no lookup, so no guard) that is not public. */
function blockedLiteral(url: string | undefined): boolean {
  if (!publicOnly || !url) return false;
  const host = hostOf(url);
  return isIP(host) !== 0 && isBlockedAddress(host);
}

/** The ID token signing algorithms accepted, best first: asymmetric only, never `none`. */
const acceptedAlgorithms = ['RS256', 'ES256', 'PS256', 'RS384', 'ES384', 'PS384', 'RS512', 'ES512', 'PS512', 'EdDSA'];

/** An OIDC connection's relying-party settings, its client secret opened. */
export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  clockToleranceSeconds: number;
}

/** The issuer could not be discovered: unreachable, not a discovery document, or one naming another issuer. */
export class DiscoveryFailed extends Error {
  constructor(readonly detail: string) {
    super(`OIDC discovery failed: ${detail}`);
    this.name = 'DiscoveryFailed';
  }
}

const discovered = new Map<string, { issuer: Issuer<BaseClient>; until: number }>();
const withoutSlash = (url: string) => url.replace(/\/+$/, '');

/** The issuer's discovery document (`<issuer>/.well-known/openid-configuration`), cached a minute. */
export async function discover(issuerUrl: string, now: Date): Promise<Issuer<BaseClient>> {
  const cached = discovered.get(issuerUrl);
  if (cached && cached.until > now.getTime()) return cached.issuer;
  if (blockedLiteral(issuerUrl)) throw new DiscoveryFailed(`the issuer ${blockedTargetMessage}`);
  let issuer: Issuer<BaseClient>;
  try {
    issuer = await Issuer.discover(`${withoutSlash(issuerUrl)}/.well-known/openid-configuration`);
  } catch (error) {
    throw new DiscoveryFailed(error instanceof Error ? error.message : String(error));
  }
  // OpenID Connect Discovery 1.0 section 4.3: the document must name the issuer it was fetched for.
  if (withoutSlash(String(issuer.metadata.issuer)) !== withoutSlash(issuerUrl))
    throw new DiscoveryFailed(`the document names the issuer ${String(issuer.metadata.issuer)}`);
  if (!issuer.metadata.authorization_endpoint || !issuer.metadata.token_endpoint || !issuer.metadata.jwks_uri)
    throw new DiscoveryFailed('the document lacks authorization_endpoint, token_endpoint or jwks_uri');
  const { token_endpoint, jwks_uri, userinfo_endpoint } = issuer.metadata;
  for (const [name, url] of Object.entries({ token_endpoint, jwks_uri, userinfo_endpoint }))
    if (blockedLiteral(url)) throw new DiscoveryFailed(`its ${name} ${blockedTargetMessage}`);
  discovered.set(issuerUrl, { issuer, until: now.getTime() + discoveryTtlMs });
  return issuer;
}

/** The algorithm ID tokens must be signed with: RS256 unless the IdP does not offer it, never `none` nor a shared secret. */
export function idTokenAlgorithmOf(supported: string[] | undefined): string {
  if (!supported) return 'RS256';
  const algorithm = acceptedAlgorithms.find((candidate) => supported.includes(candidate));
  if (!algorithm) throw new DiscoveryFailed(`no accepted ID token signing algorithm among ${supported.join(', ')}`);
  return algorithm;
}

function clientOf(issuer: Issuer<BaseClient>, settings: RelyingPartySettings): BaseClient {
  const client = new issuer.Client({
    client_id: settings.clientId,
    client_secret: settings.clientSecret,
    redirect_uris: [settings.redirectUri],
    response_types: ['code'],
    id_token_signed_response_alg: idTokenAlgorithmOf(issuer.metadata.id_token_signing_alg_values_supported as string[]),
  });
  client[custom.clock_tolerance] = settings.clockToleranceSeconds;
  return client;
}

/** What a sign-in keeps between the authorization request and the callback. */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The identity provider's authorization URL: code flow, PKCE S256, `state` (prefixed by the challenge's id) and `nonce`. */
export async function authorizationRequest(
  settings: RelyingPartySettings,
  scopes: string[],
  requestId: string,
  now: Date,
): Promise<{ url: string; checks: AuthorizationChecks }> {
  const client = clientOf(await discover(settings.issuer, now), settings);
  const checks = {
    state: `${requestId}.${generators.state()}`,
    nonce: generators.nonce(),
    codeVerifier: generators.codeVerifier(),
  };
  const url = client.authorizationUrl({
    scope: scopes.join(' '),
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: generators.codeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url, checks };
}

/** A callback refused: the refusal code and what the operator's log line says. */
export class CallbackRefused extends Error {
  constructor(
    readonly reason: SignInRefusal,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'CallbackRefused';
  }
}

/** openid-client's refusals of an ID token or an authorization response, by its messages. */
const rpRefusals: [RegExp, SignInRefusal][] = [
  [/^nonce mismatch/, 'nonce_mismatch'],
  [/^unexpected JWT alg received, expected \S+, got: none/, 'unsigned'],
  [/^unexpected JWT alg received/, 'bad_signature'],
  [/failed to validate JWT signature|no valid key found|JWTs using/, 'bad_signature'],
  [/^unexpected iss value|^iss mismatch|iss missing/, 'wrong_issuer'],
  [/^aud mismatch|^azp mismatch|missing required JWT property azp/, 'wrong_audience'],
  [/^JWT expired/, 'expired'],
  [/^JWT not active yet|^JWT issued in the future/, 'not_yet_valid'],
  [/^state mismatch|^checks.state argument is missing/, 'state_mismatch'],
];

function refusalOf(error: unknown): CallbackRefused {
  if (error instanceof errors.OPError)
    return new CallbackRefused('token_exchange_failed', `${error.error}: ${error.error_description ?? ''}`);
  if (error instanceof errors.RPError) {
    const reason = rpRefusals.find(([pattern]) => pattern.test(error.message))?.[1] ?? 'id_token_invalid';
    return new CallbackRefused(reason, error.message);
  }
  return new CallbackRefused('idp_unreachable', error instanceof Error ? error.message : String(error));
}

/** A claim as SAML attribute values: strings as they are, numbers and booleans written out, arrays flattened. */
function valuesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(valuesOf);
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  return [];
}

const protocolClaims = new Set(['aud', 'exp', 'iat', 'nbf', 'nonce', 'azp', 'at_hash', 'c_hash', 's_hash', 'auth_time', 'jti']);

/**
 * An ID token's claims, as the sign-in reads a SAML assertion: `sub` for the NameID, the identity
 * claims (and the userinfo's) for the attributes, the token's hash for the one-time use.
 */
export function assertionOf(idToken: string, claims: IdTokenClaims, userinfo: UserinfoResponse | null, requestId: string) {
  const attributes: Record<string, string[]> = {};
  for (const [name, value] of Object.entries({ ...userinfo, ...claims }))
    if (!protocolClaims.has(name) && name !== 'iss' && valuesOf(value).length > 0) attributes[name] = valuesOf(value);
  const assertionId = `oidc-${createHash('sha256').update(idToken).digest('hex')}`;
  const assertion: ValidatedAssertion = {
    response_id: assertionId,
    assertion_id: assertionId,
    issuer: claims.iss,
    in_response_to: requestId,
    name_id: claims.sub,
    name_id_format: null,
    session_index: typeof claims.sid === 'string' ? claims.sid : null,
    attributes,
    not_on_or_after: new Date(claims.exp * 1_000).toISOString(),
  };
  return assertion;
}

/**
 * The callback: the code exchanged with the PKCE verifier, the ID token checked by openid-client
 * (signature against the issuer's JWKS, `iss`, `aud`, `azp`, `exp`, `nonce`, the `iss` parameter
 * when the IdP sends it), then the userinfo when the IdP has one and the ID token carries no email.
 */
export async function callback(
  settings: RelyingPartySettings,
  params: Record<string, string>,
  checks: AuthorizationChecks,
  requestId: string,
  now: Date,
): Promise<ValidatedAssertion> {
  let issuer: Issuer<BaseClient>;
  try {
    issuer = await discover(settings.issuer, now);
  } catch (error) {
    throw new CallbackRefused('idp_unreachable', error instanceof Error ? error.message : String(error));
  }
  const client = clientOf(issuer, settings);
  try {
    const tokens = await client.callback(settings.redirectUri, params, {
      state: checks.state,
      nonce: checks.nonce,
      code_verifier: checks.codeVerifier,
      response_type: 'code',
    });
    if (!tokens.id_token) throw new CallbackRefused('id_token_invalid', 'the token response has no id_token');
    const claims = tokens.claims();
    const userinfo =
      issuer.metadata.userinfo_endpoint && tokens.access_token && claims.email === undefined
        ? await client.userinfo(tokens)
        : null;
    return assertionOf(tokens.id_token, claims, userinfo, requestId);
  } catch (error) {
    if (error instanceof CallbackRefused) throw error;
    throw refusalOf(error);
  }
}
