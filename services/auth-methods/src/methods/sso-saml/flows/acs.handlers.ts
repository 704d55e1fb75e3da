import { randomUUID } from 'node:crypto';
import { subjects } from '@sesame/contracts';
import type { OperationInput, SamlAssertionEvent, SamlSubjectData, ssoSamlAcs } from '@sesame/contracts';
import { ConcurrencyError, actingFor } from '@sesame/platform';
import type { EventMetadata, RequestContext } from '@sesame/platform';
import { allowsAuthnConnection } from '../../../core/identity/authn-connections';
import { mapAttributes } from '../domain/attribute-mapping';
import type { MappedUser } from '../domain/attribute-mapping';
import { challengeProblem } from '../domain/sso-challenge.decider';
import type { SsoChallengeCommand } from '../domain/sso-challenge.decider';
import { ownerOf } from '../domain/sso-connection.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { samlConfigOf } from '../domain/sp-values';
import { unregisteredSubjectOf } from '../domain/unregistered-subject';
import { decryptAssertion } from '../saml/assertion-decryption';
import type { ValidatedAssertion } from '../saml/response-validator';
import { validateSamlSchema } from '../saml/schema-validator';
import { requestIdOfAuthnRequest } from '../saml/service-provider';
import { redirectTo, withQuery } from './browser-replies';
import { refuseSignIn, SignInRefused } from './refusals';
import { assertionStream } from './sign-in.deps';
import type { SignInHandlerDeps } from './sign-in.deps';
import { failedPage, refused } from './sign-in-replies';
import type { Target } from './sign-in-replies';
import { userOnLogin } from './users-on-login';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a refusal goes, learnt as the response is read; and the connection it came through, once known. */
type TargetRef = { current: Target | null; connectionId?: string };

/** The challenge an assertion answers: a pending SP-initiated one, or an IdP-initiated sign-in. */
type Challenge = {
  kind: 'sp_initiated' | 'idp_initiated';
  request_id: string;
  redirect_uri: string;
  client_id: string | null;
  code_challenge: string | null;
  test: boolean;
};

/** The ACS: a SAML Response posted by the browser ends in a code for the application, or a refusal. */
export function acsHandler(deps: SignInHandlerDeps) {
  return async ({ params, body }: OperationInput<typeof ssoSamlAcs>, context: RequestContext) => {
    const target: TargetRef = { current: null };
    try {
      return await consume(deps, params.sp_id, body, context, target);
    } catch (error) {
      if (!(error instanceof SignInRefused)) return failedPage(context, error);
      // The refused sign-in of a pending challenge is recorded (`sso.login.failed`); a response naming none writes nothing.
      if (target.current?.request_id) {
        const { connectionId } = target;
        const as = connectionId ? actingFor(context, { type: 'sso_connection', id: connectionId }) : context;
        await deps.challenges.handle(
          target.current.request_id,
          { type: 'FailSsoChallenge', data: { reason: error.reason, at: deps.now().toISOString() } },
          deps.runtime.metadata(as),
        );
      }
      return refused(context, error, target.current);
    }
  };
}

/** A pending challenge of this connection named by RelayState: only where a refusal is sent. */
async function relayTarget(
  deps: SignInHandlerDeps,
  spId: string,
  connectionId: string,
  relayState: string | undefined,
): Promise<Target | null> {
  if (!relayState || !uuidPattern.test(relayState)) return null;
  const { state } = await deps.challenges.load(relayState);
  return state.status === 'pending' && state.sp_id === spId && state.sso_connection_id === connectionId
    ? { redirect_uri: state.redirect_uri, request_id: relayState, test: state.test === true }
    : null;
}

/** The assertion of a SAML Response: decrypted, validated (signature, conditions), schema-checked; refused otherwise. */
async function validatedAssertion(
  deps: SignInHandlerDeps,
  spId: string,
  connection: PresentSsoConnection,
  idp: NonNullable<PresentSsoConnection['idp']>,
  samlResponse: string,
): Promise<ValidatedAssertion> {
  const config = samlConfigOf(deps.publicUrl, spId, null);
  const received = Buffer.from(samlResponse.replace(/\s+/g, ''), 'base64').toString('utf8');
  const certificates = idp.certificates.map((certificate) => certificate.pem);
  const encryptionKey = connection.sp_encryption_key;
  const decrypted = await decryptAssertion(received, {
    privateKeyPem: encryptionKey ? deps.keyRing.open(encryptionKey.encrypted_private_key_pem) : null,
    certificates,
  });
  if (!decrypted.ok) return refuseSignIn(decrypted.reason, decrypted.detail);
  const { xml } = decrypted;
  const result = await deps.validateResponse(xml, {
    idpEntityId: idp.entity_id,
    certificates,
    spEntityId: config.entity_id,
    acsUrl: config.acs_url,
    now: deps.now(),
    skewMs: deps.clockSkewMs,
  });
  if (!result.ok) return refuseSignIn(result.reason, result.detail);
  await validateSamlSchema(xml).catch((error: Error) => refuseSignIn('schema_invalid', error.message));
  return result.assertion;
}

async function consume(
  deps: SignInHandlerDeps,
  spId: string,
  body: { SAMLResponse: string; RelayState?: string },
  context: RequestContext,
  target: TargetRef,
) {
  const connection = await deps.findConnection(spId);
  if (!connection?.idp) return refuseSignIn('connection_unavailable', spId);
  target.connectionId = connection.id;
  // From here on the sign-in acts for the connection: the actor of what it records and of the users it provisions.
  const asConnection = actingFor(context, { type: 'sso_connection', id: connection.id });
  return consumeFor(deps, spId, connection, connection.idp, body, asConnection, target);
}

async function consumeFor(
  deps: SignInHandlerDeps,
  spId: string,
  connection: PresentSsoConnection,
  idp: NonNullable<PresentSsoConnection['idp']>,
  body: { SAMLResponse: string; RelayState?: string },
  context: RequestContext,
  target: TargetRef,
) {
  target.current = await relayTarget(deps, spId, connection.id, body.RelayState);
  const assertion = await validatedAssertion(deps, spId, connection, idp, body.SAMLResponse);
  await consumeAssertion(deps, spId, assertion, deps.runtime.metadata(context));
  const challenge = await challengeOf(deps, connection, assertion, context, target);
  const mapped = mapAttributes(connection.settings.provider_type, assertion.name_id, assertion.attributes);
  if (challenge.test) return completeTest(deps, challenge.request_id, challenge.redirect_uri, assertion, mapped.email, context);
  if (!connection.settings.active) return refuseSignIn('connection_unavailable', `${spId} is inactive`);
  const organization = await deps.organizations.get(connection.organization_domain, {
    correlationId: context.meta.correlationId,
    environment: connection.environment,
  });
  if (!allowsAuthnConnection(organization, 'sso'))
    return refuseSignIn('authn_connection_not_allowed', `${connection.organization_domain} does not allow sso`);
  const subject = await completeSignIn(deps, connection, challenge, assertion, mapped, context);
  return issueCode(deps, connection, challenge, assertion, { ...mapped, email: subject.email }, subject, context);
}

/** The code the sign-in ends with, for the user, or for the unregistered subject the assertion names. */
async function issueCode(
  deps: SignInHandlerDeps,
  connection: PresentSsoConnection,
  challenge: Challenge,
  assertion: ValidatedAssertion,
  mapped: MappedUser & { email: string },
  subject: SamlSubjectData,
  context: RequestContext,
) {
  // unregistered_users_allowed: no account, the code carries who the assertion says signed in.
  const unregistered = subject.user_id ? null : unregisteredSubjectOf(connection.id, assertion, mapped);
  const userId = subject.user_id ?? (unregistered?.id as string);
  const metadata = { ...deps.runtime.metadata(context), environment: connection.environment };
  const { code } = await deps.issueCode(
    {
      environment: connection.environment,
      organizationDomain: connection.organization_domain,
      organizationId: connection.organization_id,
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

/** The command that records the sign-in: the challenge completed, or the IdP-initiated sign-in. */
function completionOf(
  connection: PresentSsoConnection,
  challenge: Challenge,
  assertionId: string,
  subject: SamlSubjectData,
  at: string,
): SsoChallengeCommand {
  if (challenge.kind === 'sp_initiated')
    return { type: 'CompleteSsoChallenge', data: { assertion_id: assertionId, subject, at } };
  const issued = {
    request_id: challenge.request_id,
    sp_id: connection.sp_id,
    sso_connection_id: connection.id,
    ...ownerOf(connection),
    organization_domain: connection.organization_domain,
    environment: connection.environment,
    redirect_uri: challenge.redirect_uri,
    client_id: null,
    expired_at: at,
    at,
  };
  return { type: 'RecordIdpInitiatedSignIn', data: { issued, assertion_id: assertionId, subject } };
}

/**
 * Check → act → commit on the challenge: checked again on its stream once this sign-in has it
 * to itself (another assertion completing it meanwhile is refused here, before any user is
 * provisioned or updated), then the user of the assertion (identity), then the challenge
 * completed or the IdP-initiated sign-in recorded. Answers who signed in.
 */
async function completeSignIn(
  deps: SignInHandlerDeps,
  connection: PresentSsoConnection,
  challenge: Challenge,
  assertion: ValidatedAssertion,
  mapped: MappedUser,
  context: RequestContext,
): Promise<SamlSubjectData & { email: string }> {
  const at = deps.now().toISOString();
  const { state } = await deps.challenges.execute(
    challenge.request_id,
    {
      check: ({ state: current }) => {
        const problem = challenge.kind === 'sp_initiated' ? challengeProblem(current, deps.now().toISOString()) : null;
        if (problem) refuseSignIn(problem, `challenge ${challenge.request_id}`);
      },
      act: async () => {
        const user = await userOnLogin(deps.identity, connection, mapped, assertion, context.meta, deps.now());
        const { name_id, name_id_format, session_index } = assertion;
        const subject = { name_id, name_id_format, session_index, email: user.email, user_id: user.user_id };
        return completionOf(connection, challenge, assertion.assertion_id, subject, at);
      },
    },
    { ...deps.runtime.metadata(context), environment: connection.environment },
    { newStream: challenge.kind === 'idp_initiated' },
  );
  if (state.status !== 'completed' || state.subject.email === null) throw new Error('a sign-in left no completed challenge');
  return { ...state.subject, email: state.subject.email };
}

/** The pending challenge the assertion answers (InResponseTo), or an IdP-initiated sign-in. */
async function challengeOf(
  deps: SignInHandlerDeps,
  connection: PresentSsoConnection,
  assertion: ValidatedAssertion,
  context: RequestContext,
  target: TargetRef,
): Promise<Challenge> {
  if (assertion.in_response_to) return pendingChallengeOf(deps, connection, assertion.in_response_to, target);
  if (!connection.settings.allow_idp_initiated) return refuseSignIn('idp_initiated_not_allowed', connection.sp_id);
  const check = await deps.identity.call(
    subjects.identity.redirectUris.check,
    { environment: connection.environment, url: '-' },
    { correlationId: context.meta.correlationId },
  );
  const redirectUri = check.default_url ?? refuseSignIn('no_default_redirect_uri', connection.environment);
  target.current = { redirect_uri: redirectUri };
  return {
    kind: 'idp_initiated',
    request_id: randomUUID(),
    redirect_uri: redirectUri,
    client_id: null,
    code_challenge: null,
    test: false,
  };
}

/** The pending challenge of this connection an SP-initiated assertion answers; refused otherwise. */
async function pendingChallengeOf(
  deps: SignInHandlerDeps,
  connection: PresentSsoConnection,
  inResponseTo: string,
  target: TargetRef,
): Promise<Challenge> {
  const requestId = requestIdOfAuthnRequest(inResponseTo) ?? refuseSignIn('unknown_in_response_to', inResponseTo);
  const { state } = await deps.challenges.load(requestId);
  if (state.status === 'absent' || state.sp_id !== connection.sp_id || state.sso_connection_id !== connection.id)
    return refuseSignIn('unknown_in_response_to', inResponseTo);
  const test = state.status === 'pending' && state.test === true;
  target.current = { redirect_uri: state.redirect_uri, request_id: requestId, test };
  const problem = challengeProblem(state, deps.now().toISOString());
  if (problem) refuseSignIn(problem, `challenge ${requestId}`);
  return {
    kind: 'sp_initiated',
    request_id: requestId,
    redirect_uri: state.redirect_uri,
    client_id: state.client_id,
    code_challenge: state.code_challenge ?? null,
    test,
  };
}

/** A test sign-in: the attributes are kept for the onboarding page; no user, no code. */
async function completeTest(
  deps: SignInHandlerDeps,
  requestId: string,
  returnUrl: string,
  assertion: ValidatedAssertion,
  email: string | null,
  context: RequestContext,
) {
  const { name_id, name_id_format, session_index, assertion_id, attributes } = assertion;
  const subject = { name_id, name_id_format, session_index, email, user_id: null };
  await deps.challenges.handle(
    requestId,
    { type: 'CompleteSsoChallenge', data: { assertion_id, subject, attributes, at: deps.now().toISOString() } },
    deps.runtime.metadata(context),
  );
  return redirectTo(withQuery(returnUrl, { request_id: requestId, sso_test: 'success' }));
}

/** Remembers the assertion id for good: a second use, on any replica, is a replay. */
async function consumeAssertion(deps: SignInHandlerDeps, spId: string, assertion: ValidatedAssertion, metadata: EventMetadata) {
  const event: SamlAssertionEvent = {
    type: 'SamlAssertionConsumed',
    data: {
      sp_id: spId,
      assertion_id: assertion.assertion_id,
      not_on_or_after: assertion.not_on_or_after,
      at: deps.now().toISOString(),
    },
  };
  try {
    await deps.runtime.eventStore.appendToStream(assertionStream(spId, assertion.assertion_id), [event], {
      expectedRevision: 'no_stream',
      metadata,
    });
  } catch (error) {
    if (error instanceof ConcurrencyError) refuseSignIn('replay', `assertion ${assertion.assertion_id}`);
    throw error;
  }
}
