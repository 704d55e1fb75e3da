import { catalogueError, onboardingSessionCookie, onboardingSessionMessages, subjects } from '@sesame/contracts';
import type { OnboardingScope, OnboardingSetup, RpcMeta } from '@sesame/contracts';
import { RpcRefusal } from '@sesame/platform';
import type { TypedRpcClient } from '@sesame/platform';
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
 * the invitation does not allow (`setup`), 403 `onboarding_setup_not_allowed`; identity not
 * answering, 503.
 */
export async function onboardingScope(
  session: string | undefined,
  identity: Pick<TypedRpcClient, 'call'>,
  meta: RpcMeta,
  setup?: OnboardingSetup,
): Promise<OnboardingScope> {
  if (!session) throw new ApiError(catalogueError('onboarding_session_required'));
  if (!credentialPattern.test(session))
    throw new ApiError(catalogueError('onboarding_session_required', onboardingSessionMessages.ended));
  try {
    const input = { session, ...(setup ? { setup } : {}) };
    return await identity.call(subjects.identity.admins.authenticateOnboardingSession, input, meta);
  } catch (error) {
    if (error instanceof RpcRefusal) throw new ApiError(error.error);
    throw error;
  }
}
