import { timingSafeEqual } from 'node:crypto';
import type { OperationInput, ssoOidcCallback } from '@sesame/contracts';
import { actingFor } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { challengeProblem } from '../domain/sso-challenge.decider';
import { callback, CallbackRefused } from '../oidc/relying-party';
import { consumeAssertion } from './acs.handlers';
import { refuseSignIn, SignInRefused } from './refusals';
import { finishSignIn } from './sign-in-completion';
import type { Challenge } from './sign-in-completion';
import { relyingPartyOf } from './sign-in.deps';
import type { SignInHandlerDeps } from './sign-in.deps';
import { failedPage, refused } from './sign-in-replies';
import type { Target } from './sign-in-replies';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
type Query = OperationInput<typeof ssoOidcCallback>['query'];

const sameString = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * The OIDC callback: the identity provider's answer to one of our authorization requests ends in a
 * code for the application, or a refusal (recorded on the challenge once its `state` proved which).
 */
export function oidcCallbackHandler(deps: SignInHandlerDeps) {
  return async ({ params, query }: OperationInput<typeof ssoOidcCallback>, context: RequestContext) => {
    let target: Target | null = null;
    try {
      const challenge = await challengeOfState(deps, params.sp_id, query.state);
      target = { redirect_uri: challenge.redirect_uri, request_id: challenge.request_id, test: challenge.test };
      return await consume(deps, params.sp_id, query, challenge, context);
    } catch (error) {
      if (!(error instanceof SignInRefused)) return failedPage(context, error);
      if (target?.request_id)
        await deps.challenges.handle(
          target.request_id,
          { type: 'FailSsoChallenge', data: { reason: error.reason, at: deps.now().toISOString() } },
          deps.runtime.metadata(context),
        );
      return refused(context, error, target);
    }
  };
}

/**
 * The challenge whose `state` the callback carries (`<request_id>.<random>`), issued for this
 * connection: any other state is refused with a page, nothing recorded (whoever sent it does not
 * hold the sign-in). A used or expired challenge is refused to its application.
 */
async function challengeOfState(
  deps: SignInHandlerDeps,
  spId: string,
  state: string,
): Promise<Challenge & { oidc: { state: string; nonce: string; code_verifier: string } }> {
  const requestId = state.split('.')[0] ?? '';
  if (!uuidPattern.test(requestId)) return refuseSignIn('state_mismatch', 'state names no sign-in');
  const { state: challenge } = await deps.challenges.load(requestId);
  if (challenge.status === 'absent' || challenge.sp_id !== spId || !challenge.oidc || !sameString(challenge.oidc.state, state))
    return refuseSignIn('state_mismatch', `state of ${requestId}`);
  return {
    kind: 'sp_initiated',
    request_id: requestId,
    redirect_uri: challenge.redirect_uri,
    client_id: challenge.client_id,
    code_challenge: challenge.code_challenge ?? null,
    test: challenge.test === true,
    oidc: challenge.oidc,
  };
}

async function consume(
  deps: SignInHandlerDeps,
  spId: string,
  query: Query,
  challenge: Awaited<ReturnType<typeof challengeOfState>>,
  context: RequestContext,
) {
  const { state } = await deps.challenges.load(challenge.request_id);
  const problem = challengeProblem(state, deps.now().toISOString());
  if (problem) return refuseSignIn(problem, `challenge ${challenge.request_id}`);
  if (query.error) return refuseSignIn('idp_error', `${query.error}: ${query.error_description ?? ''}`);
  if (!query.code) return refuseSignIn('idp_error', 'the identity provider sent no code');
  const connection = await deps.findConnection(spId);
  const settings =
    connection && state.status !== 'absent' && state.sso_connection_id === connection.id && relyingPartyOf(deps, connection);
  if (!connection || !settings) return refuseSignIn('connection_unavailable', spId);
  const checks = {
    state: challenge.oidc.state,
    nonce: challenge.oidc.nonce,
    codeVerifier: deps.keyRing.open(challenge.oidc.code_verifier),
  };
  const responseParams = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]));
  const assertion = await callback(settings, responseParams, checks, challenge.request_id, deps.now()).catch((error) => {
    if (error instanceof CallbackRefused) return refuseSignIn(error.reason, error.detail);
    throw error;
  });
  // The sign-in acts for the connection: the actor of what it records and of the users it provisions.
  const asConnection = actingFor(context, { type: 'sso_connection', id: connection.id });
  await consumeAssertion(deps, spId, assertion, deps.runtime.metadata(asConnection));
  return finishSignIn(deps, connection, challenge, assertion, asConnection);
}
