import type { Admin, AdminInvitation, SsoConnection } from '@sesame/contracts';
import type { InvitationProblem } from './i18n';
import type { SsoProviderType } from './providers';

/** The identity service's messages on `token` (contracts: `adminInvitationMessages`), and what each means here. */
export const problemOfMessage: Record<string, InvitationProblem> = {
  "can't be blank": 'missing',
  'is invalid': 'invalid',
  'has already been used': 'used',
  'has expired: ask to be invited again': 'expired',
  'has been declined: ask to be invited again': 'declined',
};

/**
 * A refused call: `problem` when the link itself can no longer be used (or the service is
 * unreachable), else the field errors of what was sent (e.g. the metadata).
 */
export interface Failure {
  ok: false;
  problem: InvitationProblem | null;
  fields: Record<string, string[]>;
}
export type Answer<T> = { ok: true; body: T } | Failure;

export function failureOf(status: number, body: unknown): Failure {
  if (status >= 500 || status === 429) return { ok: false, problem: 'unavailable', fields: {} };
  const fields = (body as { errors?: Record<string, string[]> } | null)?.errors ?? {};
  const token = fields.token?.[0];
  if (token !== undefined) return { ok: false, problem: problemOfMessage[token] ?? 'invalid', fields };
  if (status === 422) return { ok: false, problem: null, fields };
  return { ok: false, problem: 'invalid', fields: {} };
}

/** Sends the invitation token (and more fields) as JSON to an invitation endpoint of the gateway. */
async function send<T>(method: 'POST' | 'PUT', path: string, body: Record<string, unknown>): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
    });
  } catch {
    return { ok: false, problem: 'unavailable', fields: {} };
  }
  const json = (await response.json().catch(() => null)) as unknown;
  return response.ok ? { ok: true, body: json as T } : failureOf(response.status, json);
}

const invitations = '/api/v2/admin-invitations';

export const openInvitation = (token: string) => send<AdminInvitation>('POST', `${invitations}/open`, { token });
export const answerInvitation = (token: string, choice: 'accept' | 'decline') =>
  send<Admin>('POST', `${invitations}/${choice}`, { token });

export type SamlConfig = SsoConnection['saml_config'];
export const spSettings = (token: string) =>
  send<{ sp_id: string; saml_config: SamlConfig }>('POST', `${invitations}/sso/sp-settings`, { token });
export const ssoConnection = (token: string) =>
  send<{ sso_connection: SsoConnection | null }>('POST', `${invitations}/sso/connection`, { token });
export interface TestResult {
  status: 'pending' | 'succeeded' | 'failed';
  name_id: string | null;
  email: string | null;
  attributes: Record<string, string[]>;
  profile: Record<string, unknown>;
  reason: string | null;
  message: string | null;
}
/** The onboarding page itself: where the browser comes back after a test sign-in. */
export const onboardingPageUrl = (origin: string) => `${origin}/onboarding/admin-invitation`;
export const startSsoTest = (token: string, return_url: string) =>
  send<{ request_id: string; authorization_url: string }>('POST', `${invitations}/sso/test`, { token, return_url });
export const ssoTestResult = (token: string, request_id: string) =>
  send<TestResult>('POST', `${invitations}/sso/test-result`, { token, request_id });
export const saveSsoConnection = (token: string, provider_type: SsoProviderType, metadata: string) =>
  send<SsoConnection>('PUT', `${invitations}/sso/connection`, { token, provider_type, metadata });
