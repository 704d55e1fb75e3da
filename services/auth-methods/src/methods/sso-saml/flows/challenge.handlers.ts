import { randomUUID } from 'node:crypto';
import { catalogueError, fieldError, subjects } from '@sesame/contracts';
import type {
  OperationInput,
  createSsoSamlChallenge,
  ssoSamlAuthorize,
  testResultRequestSchema,
  testSignInRequestSchema,
  z,
} from '@sesame/contracts';
import { created, environmentOf, fail, failure, ok } from '@sesame/platform';
import type { EventMetadata, RequestContext } from '@sesame/platform';
import { requireAuthnConnection } from '../../../core/identity/authn-connections';
import { mapAttributes } from '../domain/attribute-mapping';
import { challengeProblem } from '../domain/sso-challenge.decider';
import type { SsoChallengeCommand } from '../domain/sso-challenge.decider';
import { defaultOidcScopes, ownerOf } from '../domain/sso-connection.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { spBaseUrl, spIdOf } from '../domain/sp-values';
import { authorizationRequest, DiscoveryFailed } from '../oidc/relying-party';
import { identityProviderOf } from '../saml/identity-provider';
import { authnRequestIdOf, serviceProviderOf } from '../saml/service-provider';
import { redirectTo } from './browser-replies';
import { refusalMessages } from './refusals';
import type { SignInRefusal } from './refusals';
import { relyingPartyOf } from './sign-in.deps';
import type { SignInHandlerDeps } from './sign-in.deps';
import { refused } from './sign-in-replies';

type Issued = Extract<SsoChallengeCommand, { type: 'IssueSsoChallenge' }>['data'];

/**
 * An OIDC connection's authorization request for a challenge: the IdP's URL, and the checks the
 * challenge keeps. A connection that cannot start one is a 422 on `field` (the caller's name for it).
 */
async function oidcStart(deps: SignInHandlerDeps, connection: PresentSsoConnection, requestId: string, field: string) {
  const settings = relyingPartyOf(deps, connection);
  if (!settings) return fail(fieldError(field, 'has an OIDC connection without issuer, client id or client secret'));
  const scopes = connection.settings.oidc_scopes ?? defaultOidcScopes;
  try {
    const { url, checks } = await authorizationRequest(settings, scopes, requestId, deps.now());
    const oidc = { state: checks.state, nonce: checks.nonce, code_verifier: deps.keyRing.seal(checks.codeVerifier) };
    return { authorization_url: url, oidc };
  } catch (error) {
    if (error instanceof DiscoveryFailed)
      return fail(fieldError(field, 'has an OIDC connection whose issuer does not answer a valid discovery document'));
    throw error;
  }
}

/** Issues a challenge of the connection, valid `challengeTtlMs`, on a fresh stream. */
async function issueChallenge(
  deps: SignInHandlerDeps,
  connection: PresentSsoConnection,
  request: Omit<Issued, 'request_id' | 'sp_id' | 'sso_connection_id' | 'expired_at' | 'at'>,
  metadata: EventMetadata,
  oidcField = 'org_domain',
) {
  const requestId = randomUUID();
  const now = deps.now();
  const expiredAt = new Date(now.getTime() + deps.challengeTtlMs).toISOString();
  const data = { request_id: requestId, sp_id: connection.sp_id, sso_connection_id: connection.id, ...ownerOf(connection) };
  // OIDC: the browser goes straight to the identity provider; SAML: through our AuthnRequest redirect.
  const start =
    connection.settings.type === 'oidc'
      ? await oidcStart(deps, connection, requestId, oidcField)
      : { authorization_url: `${spBaseUrl(deps.publicUrl, connection.sp_id)}/authorize?request_id=${requestId}` };
  const oidc = 'oidc' in start ? { oidc: start.oidc } : {};
  await deps.challenges.handle(
    requestId,
    { type: 'IssueSsoChallenge', data: { ...data, ...request, ...oidc, expired_at: expiredAt, at: now.toISOString() } },
    metadata,
    { newStream: true },
  );
  return { request_id: requestId, authorization_url: start.authorization_url, expired_at: expiredAt };
}

/** The organization of `org_domain`, or the one allowing the email's domain to sign in. */
async function signInOrganization(
  deps: SignInHandlerDeps,
  body: OperationInput<typeof createSsoSamlChallenge>['body'],
  meta: { correlationId: string; environment: NonNullable<RequestContext['meta']['environment']> },
) {
  if (body.org_domain) return deps.organizations.get(body.org_domain, meta);
  const { organization } = await deps.identity.call(
    subjects.identity.organizations.forSignIn,
    { email: body.user_email as string },
    meta,
  );
  return organization;
}

export function createChallengeHandler(deps: SignInHandlerDeps) {
  return async ({ body }: OperationInput<typeof createSsoSamlChallenge>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const correlationId = context.meta.correlationId;
    const organization = await signInOrganization(deps, body, { correlationId, environment });
    requireAuthnConnection(organization, 'sso');
    const organizationDomain = organization.domain;
    const check = await deps.identity.call(
      subjects.identity.redirectUris.check,
      { environment, url: body.redirect_uri },
      { correlationId },
    );
    if (!check.registered) return failure(fieldError('redirect_uri', 'is not a registered redirect URI'));
    const connection = await deps.findConnection(spIdOf(organizationDomain, environment));
    if (!connection) return failure(catalogueError('resource_not_found'));
    if (!connection.settings.active) return failure(fieldError('org_domain', 'has an inactive SSO connection'));
    if (connection.settings.type !== 'oidc' && !connection.idp)
      return failure(fieldError('org_domain', 'has an SSO connection without identity provider metadata'));
    const issued = await issueChallenge(
      deps,
      connection,
      {
        organization_domain: organizationDomain,
        environment,
        redirect_uri: body.redirect_uri,
        client_id: context.meta.clientId ?? null,
        code_challenge: body.code_challenge ?? null,
      },
      deps.runtime.metadata(context),
    );
    return created({ ...issued, redirect_uri: body.redirect_uri, sso_connection_id: connection.id });
  };
}

/** The browser sent to the IdP with our AuthnRequest, for a usable challenge of this connection. */
export function authorizeHandler(deps: SignInHandlerDeps) {
  return async ({ params, query }: OperationInput<typeof ssoSamlAuthorize>, context: RequestContext) => {
    const { state } = await deps.challenges.load(query.request_id);
    const problem =
      state.status !== 'absent' && state.sp_id !== params.sp_id
        ? 'unknown_in_response_to'
        : challengeProblem(state, deps.now().toISOString());
    if (problem) return refused(context, { reason: problem, detail: `authorize ${query.request_id}` });
    const connection = await deps.findConnection(params.sp_id);
    const isTest = state.status === 'pending' && state.test === true;
    // A challenge of a connection deleted since (with its organization) is not usable, even once one of the same name exists again.
    const sameConnection = state.status !== 'absent' && state.sso_connection_id === connection?.id;
    if (!connection?.idp || !sameConnection || !(connection.settings.active || isTest))
      return refused(context, { reason: 'connection_unavailable', detail: params.sp_id });
    const sp = serviceProviderOf(connection, deps.publicUrl, {
      privateKeyPem: deps.keyRing.open(connection.sp_key.encrypted_private_key_pem),
      messageId: authnRequestIdOf(query.request_id),
    });
    const request = sp.createLoginRequest(identityProviderOf(connection.idp), 'redirect', { relayState: query.request_id });
    return redirectTo((request as { context: string }).context);
  };
}

/** A test sign-in of the onboarding page: a challenge returning to a page of Sesame. */
export function testSignInHandler(deps: SignInHandlerDeps) {
  return async (input: z.infer<typeof testSignInRequestSchema>, context: RequestContext) => {
    if (!input.return_url.startsWith(`${deps.publicUrl.replace(/\/$/, '')}/`))
      return failure(fieldError('return_url', 'must be a page of Sesame'));
    const connection = await deps.findConnection(spIdOf(input.organization_domain, input.environment));
    if (!connection) return failure(catalogueError('resource_not_found'));
    if (connection.settings.type !== 'oidc' && !connection.idp)
      return failure(fieldError('metadata', "can't be blank: add the identity provider metadata first"));
    const issued = await issueChallenge(
      deps,
      connection,
      {
        organization_domain: connection.organization_domain,
        environment: connection.environment,
        redirect_uri: input.return_url,
        client_id: null,
        test: true,
      },
      { ...deps.runtime.metadata(context), environment: connection.environment },
      'oidc_issuer',
    );
    return ok(issued);
  };
}

/** What a test sign-in came to: the attributes the IdP sent and how they map, or why it was refused. */
export function testResultHandler(deps: SignInHandlerDeps) {
  return async ({ request_id: requestId, organization_domain: domain, environment }: z.infer<typeof testResultRequestSchema>) => {
    const { state } = await deps.challenges.load(requestId);
    if (state.status === 'absent' || !state.test) return failure(catalogueError('resource_not_found'));
    if ((domain && domain !== state.organization_domain) || (environment && environment !== state.environment))
      return failure(catalogueError('resource_not_found'));
    const completed = state.status === 'completed' ? state : null;
    const connection = await deps.findConnection(state.sp_id);
    const attributes = completed?.attributes ?? {};
    const mapped =
      completed && connection ? mapAttributes(connection.settings.provider_type, completed.subject.name_id, attributes) : null;
    const reason = state.status === 'failed' ? (state.reason as SignInRefusal) : null;
    return ok({
      status: completed ? ('succeeded' as const) : state.status === 'failed' ? ('failed' as const) : ('pending' as const),
      name_id: completed?.subject.name_id ?? null,
      email: mapped?.email ?? null,
      attributes,
      profile: mapped?.profile ?? {},
      reason,
      message: reason ? (refusalMessages[reason] ?? reason) : null,
    });
  };
}
