import {
  catalogueError,
  onboardingScopeSchema,
  onboardingSessionCookie,
  onboardingSessionMessages,
  subjects,
} from '@sesame/contracts';
import type { OnboardingScope, OnboardingSetup, RpcReply } from '@sesame/contracts';
import { ApiError } from '../http/api-error';

const credentialPattern = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * The onboarding session cookie of a request, if it carries one. With several of that name
 * (another path or domain), the first: browsers send the most specific path first.
 */
export function onboardingSessionOf(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === onboardingSessionCookie.name)
      return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * Authenticates a call of the onboarding page by its session cookie: identity (which keeps the
 * sessions, as events) checks it, pushes back its idle expiry and answers what it may reach: its
 * invitation's organization and environment, nothing else. No cookie, or one identity refuses
 * (ended, expired, unknown), answers 401 `onboarding_session_required`; a call that sets up what
 * the invitation does not allow (`setup`), 403 `onboarding_setup_not_allowed`.
 */
export async function onboardingScope(
  session: string | undefined,
  ask: (subject: string, input: unknown) => Promise<RpcReply>,
  setup?: OnboardingSetup,
): Promise<OnboardingScope> {
  if (!session) throw new ApiError(catalogueError('onboarding_session_required'));
  if (!credentialPattern.test(session))
    throw new ApiError(catalogueError('onboarding_session_required', onboardingSessionMessages.ended));
  const answer = await ask(subjects.identity.admins.authenticateOnboardingSession, { session, ...(setup ? { setup } : {}) });
  if (!answer.ok) throw new ApiError(answer.error);
  return onboardingScopeSchema.parse(answer.body);
}
