import { createHash, randomUUID } from 'node:crypto';
import {
  catalogueError,
  createSsoSamlChallenge,
  fieldError,
  ssoSamlAcs,
  ssoSamlAuthorize,
  subjects,
  testResultRequestSchema,
  testSignInRequestSchema,
} from '@sesame/contracts';
import type { Environment, SamlAssertionEvent, SamlSubjectData, UnregisteredSubject } from '@sesame/contracts';
import { Aggregate, ConcurrencyError, DomainError, created, fail, failure, ok, streamName } from '@sesame/platform';
import type { EventMetadata, KeyRing, RequestContext, ServiceRuntime } from '@sesame/platform';
import { allowsAuthnConnection, requireAuthnConnection } from '../../../core/identity/authn-connections';
import type { IdentityClient } from '../../../core/identity/identity-client';
import type { Organizations } from '../../../core/identity/organizations';
import { mapAttributes } from '../domain/attribute-mapping';
import type { MappedUser } from '../domain/attribute-mapping';
import { challengeProblem, ssoChallengeDecider } from '../domain/sso-challenge.decider';
import type { SsoChallengeCommand, SsoChallengeState } from '../domain/sso-challenge.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { samlConfigOf, spBaseUrl, spIdOf } from '../domain/sp-values';
import { unregisteredSubjectOf } from '../domain/unregistered-subject';
import { identityProviderOf } from '../saml/identity-provider';
import { decryptAssertion } from '../saml/assertion-decryption';
import type { ResponseExpectations, ValidatedAssertion, ValidationResult } from '../saml/response-validator';
import { validateSamlSchema } from '../saml/schema-validator';
import { authnRequestIdOf, requestIdOfAuthnRequest, serviceProviderOf } from '../saml/service-provider';
import { errorPage, redirectTo, withQuery } from './browser-replies';
import { refusalMessages, refuseSignIn, SignInRefused } from './refusals';
import type { SignInRefusal } from './refusals';
import { userOnLogin } from './users-on-login';

/** Issues the one-time authorization code a sign-in ends with (the authorization-code module). */
export type IssueSignInCode = (
  request: {
    environment: Environment;
    organizationDomain: string;
    userId: string;
    redirectUri: string;
    clientId?: string;
    codeChallenge?: string;
    unregistered?: UnregisteredSubject;
  },
  metadata: EventMetadata,
) => Promise<{ code: string }>;

export interface SignInDeps {
  runtime: ServiceRuntime;
  identity: IdentityClient;
  organizations: Pick<Organizations, 'get'>;
  keyRing: KeyRing;
  publicUrl: string;
  findConnection(spId: string): Promise<PresentSsoConnection | null>;
  issueCode: IssueSignInCode;
  challengeTtlMs: number;
  clockSkewMs: number;
  /** `validateSamlResponse`, run where it does not hold the event loop (the validation pool). */
  validateResponse(xml: string, expected: ResponseExpectations): Promise<ValidationResult>;
}

export const ssoChallengeStream = (requestId: string) => streamName('ssoChallenge', requestId);
const assertionStream = (spId: string, assertionId: string) =>
  streamName('samlAssertion', createHash('sha256').update(`${spId}\n${assertionId}`).digest('hex'));
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a refused sign-in sends the user: the application, once we know which request it answers. */
interface Target {
  redirect_uri: string;
  request_id?: string;
  /** A test sign-in of the onboarding page. */
  test?: boolean;
}

/** SP- and IdP-initiated SAML sign-in: the challenge, the redirect to the IdP, the ACS. */
export function registerSamlSignIn(deps: SignInDeps): void {
  const { runtime, identity } = deps;
  // A refused response recording its failure must not land between a sign-in's check and its commit.
  const challenges = new Aggregate(runtime.commandDeps<SsoChallengeState>(), {
    decider: ssoChallengeDecider,
    stream: ssoChallengeStream,
    exclusive: true,
  });
  const run = (requestId: string, command: SsoChallengeCommand, metadata: EventMetadata, newStream = false) =>
    challenges.handle(requestId, command, metadata, { newStream });
  const loadChallenge = async (requestId: string): Promise<SsoChallengeState> => (await challenges.load(requestId)).state;

  runtime.router.operation(createSsoSamlChallenge, async ({ body }, context) => {
    const environment = context.meta.environment ?? fail(catalogueError('unauthorized'));
    const correlationId = context.meta.correlationId;
    const organization = body.org_domain
      ? await deps.organizations.get(body.org_domain, { correlationId, environment })
      : (
          await identity.call(
            subjects.identity.organizations.forSignIn,
            { email: body.user_email as string },
            { correlationId, environment },
          )
        ).organization;
    requireAuthnConnection(organization, 'sso');
    const organizationDomain = organization.domain;
    const check = await identity.call(
      subjects.identity.redirectUris.check,
      { environment, url: body.redirect_uri },
      { correlationId },
    );
    if (!check.registered) return failure(fieldError('redirect_uri', 'is not a registered redirect URI'));
    const connection = await deps.findConnection(spIdOf(organizationDomain, environment));
    if (!connection) return failure(catalogueError('resource_not_found'));
    if (!connection.settings.active) return failure(fieldError('org_domain', 'has an inactive SSO connection'));
    if (!connection.idp) return failure(fieldError('org_domain', 'has an SSO connection without identity provider metadata'));
    const requestId = randomUUID();
    const now = new Date();
    const expiredAt = new Date(now.getTime() + deps.challengeTtlMs).toISOString();
    await run(
      requestId,
      {
        type: 'IssueSsoChallenge',
        data: {
          request_id: requestId,
          sp_id: connection.sp_id,
          sso_connection_id: connection.id,
          organization_domain: organizationDomain,
          environment,
          redirect_uri: body.redirect_uri,
          client_id: context.meta.clientId ?? null,
          expired_at: expiredAt,
          at: now.toISOString(),
          code_challenge: body.code_challenge ?? null,
        },
      },
      runtime.metadata(context),
      true,
    );
    return created({
      request_id: requestId,
      authorization_url: `${spBaseUrl(deps.publicUrl, connection.sp_id)}/authorize?request_id=${requestId}`,
      redirect_uri: body.redirect_uri,
      expired_at: expiredAt,
      sso_connection_id: connection.id,
    });
  });

  runtime.router.operation(ssoSamlAuthorize, async ({ params, query }, context) => {
    const state = await loadChallenge(query.request_id);
    const problem =
      state.status !== 'absent' && state.sp_id !== params.sp_id
        ? 'unknown_in_response_to'
        : challengeProblem(state, new Date().toISOString());
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
  });

  runtime.router.operation(ssoSamlAcs, async ({ params, body }, context) => {
    const target: { current: Target | null } = { current: null };
    try {
      return await consume(params.sp_id, body, context, target);
    } catch (error) {
      if (!(error instanceof SignInRefused)) return failedPage(context, error);
      // The refused sign-in of a pending challenge is recorded (`sso.login.failed`); a response naming none writes nothing.
      if (target.current?.request_id)
        await run(
          target.current.request_id,
          { type: 'FailSsoChallenge', data: { reason: error.reason, at: new Date().toISOString() } },
          runtime.metadata(context),
        );
      return refused(context, error, target.current);
    }
  });

  /**
   * Anything but a refusal: an organization gone from identity is "SSO not available", identity
   * unreachable a 503 page, anything else a 500 page; the cause is logged, never shown.
   */
  function failedPage(context: RequestContext, error: unknown) {
    const appError = error instanceof DomainError && error.error.kind === 'error' ? error.error : null;
    if (appError?.code === 'resource_not_found')
      return refused(context, { reason: 'connection_unavailable', detail: 'the organization is unknown to identity' });
    context.logger.error({ err: error }, 'SAML sign-in failed');
    if (appError?.code === 'service_unavailable') return errorPage('sso_unavailable', context.meta, 503);
    return errorPage('internal_error', context.meta, 500);
  }

  function refused(context: RequestContext, refusal: Pick<SignInRefused, 'reason' | 'detail'>, target: Target | null = null) {
    context.logger.warn({ reason: refusal.reason, detail: refusal.detail }, 'SAML sign-in refused');
    const message = refusalMessages[refusal.reason];
    if (!target) return errorPage({ refusal: refusal.reason }, context.meta);
    if (target.test)
      return redirectTo(withQuery(target.redirect_uri, { request_id: target.request_id ?? '', sso_test: 'failed' }));
    return redirectTo(
      withQuery(target.redirect_uri, {
        error: 'access_denied',
        error_description: message,
        ...(target.request_id ? { request_id: target.request_id } : {}),
      }),
    );
  }

  /** A pending challenge of this connection named by RelayState: only where a refusal is sent. */
  async function relayTarget(spId: string, connectionId: string, relayState: string | undefined): Promise<Target | null> {
    if (!relayState || !uuidPattern.test(relayState)) return null;
    const state = await loadChallenge(relayState);
    return state.status === 'pending' && state.sp_id === spId && state.sso_connection_id === connectionId
      ? { redirect_uri: state.redirect_uri, request_id: relayState, test: state.test === true }
      : null;
  }

  async function consume(
    spId: string,
    body: { SAMLResponse: string; RelayState?: string },
    context: RequestContext,
    target: { current: Target | null },
  ) {
    const connection = await deps.findConnection(spId);
    if (!connection?.idp) return refuseSignIn('connection_unavailable', spId);
    target.current = await relayTarget(spId, connection.id, body.RelayState);
    const config = samlConfigOf(deps.publicUrl, spId, null);
    const received = Buffer.from(body.SAMLResponse.replace(/\s+/g, ''), 'base64').toString('utf8');
    const certificates = connection.idp.certificates.map((certificate) => certificate.pem);
    const encryptionKey = connection.sp_encryption_key;
    const decrypted = await decryptAssertion(received, {
      privateKeyPem: encryptionKey ? deps.keyRing.open(encryptionKey.encrypted_private_key_pem) : null,
      certificates,
    });
    if (!decrypted.ok) return refuseSignIn(decrypted.reason, decrypted.detail);
    const { xml } = decrypted;
    const result = await deps.validateResponse(xml, {
      idpEntityId: connection.idp.entity_id,
      certificates,
      spEntityId: config.entity_id,
      acsUrl: config.acs_url,
      now: new Date(),
      skewMs: deps.clockSkewMs,
    });
    if (!result.ok) return refuseSignIn(result.reason, result.detail);
    await validateSamlSchema(xml).catch((error: Error) => refuseSignIn('schema_invalid', error.message));
    const { assertion } = result;
    await consumeAssertion(spId, assertion, runtime.metadata(context));
    const challenge = await challengeOf(connection, assertion, context, target);
    const mapped = mapAttributes(connection.settings.provider_type, assertion.name_id, assertion.attributes);
    if (challenge.test) return completeTest(challenge.request_id, challenge.redirect_uri, assertion, mapped.email, context);
    if (!connection.settings.active) return refuseSignIn('connection_unavailable', `${spId} is inactive`);
    const organization = await deps.organizations.get(connection.organization_domain, {
      correlationId: context.meta.correlationId,
      environment: connection.environment,
    });
    if (!allowsAuthnConnection(organization, 'sso'))
      return refuseSignIn('authn_connection_not_allowed', `${connection.organization_domain} does not allow sso`);
    const subject = await completeSignIn(connection, challenge, assertion, mapped, context);
    // unregistered_users_allowed: no account, the code carries who the assertion says signed in.
    const unregistered = subject.user_id
      ? null
      : unregisteredSubjectOf(connection.id, assertion, { ...mapped, email: subject.email });
    const userId = subject.user_id ?? (unregistered?.id as string);
    const metadata = { ...runtime.metadata(context), environment: connection.environment };
    const { code } = await deps.issueCode(
      {
        environment: connection.environment,
        organizationDomain: connection.organization_domain,
        userId,
        redirectUri: challenge.redirect_uri,
        ...(challenge.client_id ? { clientId: challenge.client_id } : {}),
        ...(challenge.code_challenge ? { codeChallenge: challenge.code_challenge } : {}),
        ...(unregistered ? { unregistered: unregistered.subject } : {}),
      },
      metadata,
    );
    return redirectTo(withQuery(challenge.redirect_uri, { code, request_id: challenge.request_id }));
  }

  /**
   * Check → act → commit on the challenge: checked again on its stream once this sign-in has it
   * to itself (another assertion completing it meanwhile is refused here, before any user is
   * provisioned or updated), then the user of the assertion (identity), then the challenge
   * completed or the IdP-initiated sign-in recorded. Answers who signed in.
   */
  async function completeSignIn(
    connection: PresentSsoConnection,
    challenge: Awaited<ReturnType<typeof challengeOf>>,
    assertion: ValidatedAssertion,
    mapped: MappedUser,
    context: RequestContext,
  ): Promise<SamlSubjectData & { email: string }> {
    const at = new Date().toISOString();
    const completion = (subject: SamlSubjectData): SsoChallengeCommand =>
      challenge.kind === 'sp_initiated'
        ? { type: 'CompleteSsoChallenge', data: { assertion_id: assertion.assertion_id, subject, at } }
        : {
            type: 'RecordIdpInitiatedSignIn',
            data: {
              issued: {
                request_id: challenge.request_id,
                sp_id: connection.sp_id,
                sso_connection_id: connection.id,
                organization_domain: connection.organization_domain,
                environment: connection.environment,
                redirect_uri: challenge.redirect_uri,
                client_id: null,
                expired_at: at,
                at,
              },
              assertion_id: assertion.assertion_id,
              subject,
            },
          };
    const { state } = await challenges.execute(
      challenge.request_id,
      {
        check: ({ state: current }) => {
          const problem = challenge.kind === 'sp_initiated' ? challengeProblem(current, new Date().toISOString()) : null;
          if (problem) refuseSignIn(problem, `challenge ${challenge.request_id}`);
        },
        act: async () => {
          const user = await userOnLogin(identity, connection, mapped, assertion, context.meta.correlationId);
          const { name_id, name_id_format, session_index } = assertion;
          return completion({ name_id, name_id_format, session_index, email: user.email, user_id: user.user_id });
        },
      },
      { ...runtime.metadata(context), environment: connection.environment },
      { newStream: challenge.kind === 'idp_initiated' },
    );
    if (state.status !== 'completed' || state.subject.email === null) throw new Error('a sign-in left no completed challenge');
    return { ...state.subject, email: state.subject.email };
  }

  /** The pending challenge the assertion answers (InResponseTo), or an IdP-initiated sign-in. */
  async function challengeOf(
    connection: PresentSsoConnection,
    assertion: ValidatedAssertion,
    context: RequestContext,
    target: { current: Target | null },
  ) {
    if (assertion.in_response_to) {
      const requestId =
        requestIdOfAuthnRequest(assertion.in_response_to) ?? refuseSignIn('unknown_in_response_to', assertion.in_response_to);
      const state = await loadChallenge(requestId);
      if (state.status === 'absent' || state.sp_id !== connection.sp_id || state.sso_connection_id !== connection.id)
        return refuseSignIn('unknown_in_response_to', assertion.in_response_to);
      const test = state.status === 'pending' && state.test === true;
      target.current = { redirect_uri: state.redirect_uri, request_id: requestId, test };
      const problem = challengeProblem(state, new Date().toISOString());
      if (problem) refuseSignIn(problem, `challenge ${requestId}`);
      return {
        kind: 'sp_initiated' as const,
        request_id: requestId,
        redirect_uri: state.redirect_uri,
        client_id: state.client_id,
        code_challenge: state.code_challenge ?? null,
        test,
      };
    }
    if (!connection.settings.allow_idp_initiated) return refuseSignIn('idp_initiated_not_allowed', connection.sp_id);
    const check = await identity.call(
      subjects.identity.redirectUris.check,
      { environment: connection.environment, url: '-' },
      { correlationId: context.meta.correlationId },
    );
    const redirectUri = check.default_url ?? refuseSignIn('no_default_redirect_uri', connection.environment);
    target.current = { redirect_uri: redirectUri };
    const idpInitiated = {
      request_id: randomUUID(),
      redirect_uri: redirectUri,
      client_id: null,
      code_challenge: null,
      test: false,
    };
    return { kind: 'idp_initiated' as const, ...idpInitiated };
  }

  /** A test sign-in: the attributes are kept for the onboarding page; no user, no code. */
  async function completeTest(
    requestId: string,
    returnUrl: string,
    assertion: ValidatedAssertion,
    email: string | null,
    context: RequestContext,
  ) {
    const subject = {
      name_id: assertion.name_id,
      name_id_format: assertion.name_id_format,
      session_index: assertion.session_index,
      email,
      user_id: null,
    };
    await run(
      requestId,
      {
        type: 'CompleteSsoChallenge',
        data: { assertion_id: assertion.assertion_id, subject, attributes: assertion.attributes, at: new Date().toISOString() },
      },
      runtime.metadata(context),
    );
    return redirectTo(withQuery(returnUrl, { request_id: requestId, sso_test: 'success' }));
  }

  runtime.router.on(
    subjects.authMethods.sso.testSignIn,
    async (input, context) => {
      if (!input.return_url.startsWith(`${deps.publicUrl.replace(/\/$/, '')}/`))
        return failure(fieldError('return_url', 'must be a page of Sesame'));
      const connection = await deps.findConnection(spIdOf(input.organization_domain, input.environment));
      if (!connection) return failure(catalogueError('resource_not_found'));
      if (!connection.idp) return failure(fieldError('metadata', "can't be blank: add the identity provider metadata first"));
      const requestId = randomUUID();
      const now = new Date();
      const expiredAt = new Date(now.getTime() + deps.challengeTtlMs).toISOString();
      await run(
        requestId,
        {
          type: 'IssueSsoChallenge',
          data: {
            request_id: requestId,
            sp_id: connection.sp_id,
            sso_connection_id: connection.id,
            organization_domain: connection.organization_domain,
            environment: connection.environment,
            redirect_uri: input.return_url,
            client_id: null,
            expired_at: expiredAt,
            at: now.toISOString(),
            test: true,
          },
        },
        { ...runtime.metadata(context), environment: connection.environment },
        true,
      );
      return ok({
        request_id: requestId,
        authorization_url: `${spBaseUrl(deps.publicUrl, connection.sp_id)}/authorize?request_id=${requestId}`,
        expired_at: expiredAt,
      });
    },
    testSignInRequestSchema,
  );

  runtime.router.on(
    subjects.authMethods.sso.testResult,
    async ({ request_id: requestId, organization_domain: domain, environment }) => {
      const state = await loadChallenge(requestId);
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
        status: completed ? 'succeeded' : state.status === 'failed' ? 'failed' : 'pending',
        name_id: completed?.subject.name_id ?? null,
        email: mapped?.email ?? null,
        attributes,
        profile: mapped?.profile ?? {},
        reason,
        message: reason ? (refusalMessages[reason] ?? reason) : null,
      });
    },
    testResultRequestSchema,
  );

  /** Remembers the assertion id for good: a second use, on any replica, is a replay. */
  async function consumeAssertion(spId: string, assertion: ValidatedAssertion, metadata: EventMetadata) {
    const event: SamlAssertionEvent = {
      type: 'SamlAssertionConsumed',
      data: {
        sp_id: spId,
        assertion_id: assertion.assertion_id,
        not_on_or_after: assertion.not_on_or_after,
        at: new Date().toISOString(),
      },
    };
    try {
      await runtime.eventStore.appendToStream(assertionStream(spId, assertion.assertion_id), [event], {
        expectedRevision: 'no_stream',
        metadata,
      });
    } catch (error) {
      if (error instanceof ConcurrencyError) refuseSignIn('replay', `assertion ${assertion.assertion_id}`);
      throw error;
    }
  }
}
