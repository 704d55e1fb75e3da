import type { SamlSubjectData } from '@sesame/contracts';
import type { RequestContext } from '@sesame/platform';
import { allowsAuthnConnection } from '../../../core/identity/authn-connections';
import { mapAttributes } from '../domain/attribute-mapping';
import type { MappedUser } from '../domain/attribute-mapping';
import { challengeProblem } from '../domain/sso-challenge.decider';
import type { SsoChallengeCommand } from '../domain/sso-challenge.decider';
import { ownerOf } from '../domain/sso-connection.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { unregisteredSubjectOf } from '../domain/unregistered-subject';
import type { ValidatedAssertion } from '../saml/response-validator';
import { redirectTo, withQuery } from './browser-replies';
import { refuseSignIn } from './refusals';
import type { SignInHandlerDeps } from './sign-in.deps';
import { userOnLogin } from './users-on-login';

/** The challenge a verified answer of the IdP completes: a pending SP-initiated one, or an IdP-initiated sign-in. */
export type Challenge = {
  kind: 'sp_initiated' | 'idp_initiated';
  request_id: string;
  redirect_uri: string;
  client_id: string | null;
  code_challenge: string | null;
  test: boolean;
};

/**
 * The end of every SSO sign-in once the identity provider's answer is verified (a SAML assertion,
 * an OIDC ID token): a test sign-in records what the IdP sent; otherwise the connection and the
 * organization must allow SSO, the user is found or provisioned per the connection's rules, the
 * challenge completed, and the browser sent to the application with a one-time code.
 */
export async function finishSignIn(
  deps: SignInHandlerDeps,
  connection: PresentSsoConnection,
  challenge: Challenge,
  assertion: ValidatedAssertion,
  context: RequestContext,
) {
  const mapped = mapAttributes(connection.settings.provider_type, assertion.name_id, assertion.attributes);
  if (challenge.test) return completeTest(deps, challenge.request_id, challenge.redirect_uri, assertion, mapped.email, context);
  if (!connection.settings.active) return refuseSignIn('connection_unavailable', `${connection.sp_id} is inactive`);
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
