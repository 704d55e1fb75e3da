import { onboardingSessionMessages, subjects } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { ApiError } from '../http/api-error';
import { onboardingScope, onboardingSessionOf } from './invitation-authenticator';

const scope = {
  organization_domain: 'acme',
  environment: 'sandbox',
  admin_id: '7f0c5a1e-3b7d-4c2a-9e1f-1a2b3c4d5e6f',
  session_id: '0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b',
};

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.error;
    throw error;
  }
  return null;
}

describe('onboarding session authentication', () => {
  it('reads the session cookie among others, the first one of its name', () => {
    expect(onboardingSessionOf('a=1; sesame_onboarding=abc.def ; b=2')).toBe('abc.def');
    expect(onboardingSessionOf('sesame_onboarding=first; sesame_onboarding=second')).toBe('first');
    expect(onboardingSessionOf('xsesame_onboarding=1; other=2')).toBeUndefined();
    expect(onboardingSessionOf(undefined)).toBeUndefined();
  });

  it('asks identity about the cookie and answers the scope it gives', async () => {
    const asked: unknown[] = [];
    const ask = async (subject: string, input: unknown): Promise<RpcReply> => {
      asked.push([subject, input]);
      return { ok: true, status: 200, body: scope };
    };
    expect(await onboardingScope('admin.secret', ask)).toEqual(scope);
    expect(asked).toEqual([[subjects.identity.admins.authenticateOnboardingSession, { session: 'admin.secret' }]]);
  });

  it('refuses without a cookie or with a malformed one, without asking identity, and passes identity’s refusal on', async () => {
    const never = async (): Promise<RpcReply> => {
      throw new Error('identity must not be asked');
    };
    expect(await refusal(onboardingScope(undefined, never))).toEqual({ kind: 'error', code: 'onboarding_session_required' });
    expect(await refusal(onboardingScope('a b;c', never))).toEqual({
      kind: 'error',
      code: 'onboarding_session_required',
      message: onboardingSessionMessages.ended,
    });
    const expired = {
      kind: 'error' as const,
      code: 'onboarding_session_required' as const,
      message: onboardingSessionMessages.expired,
    };
    expect(await refusal(onboardingScope('admin.secret', async () => ({ ok: false, error: expired })))).toEqual(expired);
  });
});
