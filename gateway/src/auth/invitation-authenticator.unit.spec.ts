import { onboardingSessionMessages, subjects } from '@sesame/contracts';
import type { RpcReply, RpcRequest } from '@sesame/contracts';
import { RpcUnavailableError, TypedRpcClient } from '@sesame/platform';
import { ApiError } from '../http/api-error';
import { onboardingScope, onboardingSessionOf } from './invitation-authenticator';

const scope = {
  organization_domain: 'acme',
  environment: 'sandbox',
  admin_id: '7f0c5a1e-3b7d-4c2a-9e1f-1a2b3c4d5e6f',
  session_id: '0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b',
};

const meta = { correlationId: 'c-1' };
/** Identity as the gateway reaches it: a typed client over a transport that answers `reply`. */
const identity = (reply: (subject: string, request: RpcRequest) => Promise<RpcReply>) =>
  new TypedRpcClient({
    request: async <T>(subject: string, request: RpcRequest) => (await reply(subject, request)) as RpcReply<T>,
  });

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
    const ask = identity(async (subject, request) => {
      asked.push([subject, request]);
      return { ok: true, status: 200, body: scope };
    });
    expect(await onboardingScope('admin.secret', ask, meta)).toEqual(scope);
    expect(asked).toEqual([
      [subjects.identity.admins.authenticateOnboardingSession, { meta, input: { session: 'admin.secret' } }],
    ]);
  });

  it('refuses without a cookie or with a malformed one, without asking identity, and passes identity’s refusal on', async () => {
    const never = identity(async () => {
      throw new Error('identity must not be asked');
    });
    expect(await refusal(onboardingScope(undefined, never, meta))).toEqual({
      kind: 'error',
      code: 'onboarding_session_required',
    });
    expect(await refusal(onboardingScope('a b;c', never, meta))).toEqual({
      kind: 'error',
      code: 'onboarding_session_required',
      message: onboardingSessionMessages.ended,
    });
    const expired = {
      kind: 'error' as const,
      code: 'onboarding_session_required' as const,
      message: onboardingSessionMessages.expired,
    };
    const refusing = identity(async () => ({ ok: false, error: expired }));
    expect(await refusal(onboardingScope('admin.secret', refusing, meta))).toEqual(expired);
  });

  it('answers 503 when identity does not answer', async () => {
    const silent = identity(async (subject) => {
      throw new RpcUnavailableError(subject, 'no responders');
    });
    expect(await refusal(onboardingScope('admin.secret', silent, meta))).toEqual({ kind: 'error', code: 'service_unavailable' });
  });
});
