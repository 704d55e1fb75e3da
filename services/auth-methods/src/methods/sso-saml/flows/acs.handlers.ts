import { randomUUID } from 'node:crypto';
import { subjects } from '@sesame/contracts';
import type { OperationInput, SamlAssertionEvent, ssoSamlAcs } from '@sesame/contracts';
import { ConcurrencyError, actingFor } from '@sesame/platform';
import type { EventMetadata, RequestContext } from '@sesame/platform';
import { challengeProblem } from '../domain/sso-challenge.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { samlConfigOf } from '../domain/sp-values';
import { decryptAssertion } from '../saml/assertion-decryption';
import type { ValidatedAssertion } from '../saml/response-validator';
import { validateSamlSchema } from '../saml/schema-validator';
import { requestIdOfAuthnRequest } from '../saml/service-provider';
import { refuseSignIn, SignInRefused } from './refusals';
import { assertionStream } from './sign-in.deps';
import type { SignInHandlerDeps } from './sign-in.deps';
import { failedPage, refused } from './sign-in-replies';
import type { Target } from './sign-in-replies';
import { finishSignIn } from './sign-in-completion';
import type { Challenge } from './sign-in-completion';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a refusal goes, learnt as the response is read; and the connection it came through, once known. */
type TargetRef = { current: Target | null; connectionId?: string };

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
  return finishSignIn(deps, connection, challenge, assertion, context);
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

/** Remembers the assertion id for good (an OIDC ID token's too): a second use, on any replica, is a replay. */
export async function consumeAssertion(
  deps: SignInHandlerDeps,
  spId: string,
  assertion: ValidatedAssertion,
  metadata: EventMetadata,
) {
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
