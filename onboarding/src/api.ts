import type { Admin, AdminInvitation } from '@sesame/contracts';
import type { InvitationProblem } from './i18n';

/** The identity service's messages on `token` (contracts: `adminInvitationMessages`), and what each means here. */
export const problemOfMessage: Record<string, InvitationProblem> = {
  "can't be blank": 'missing',
  'is invalid': 'invalid',
  'has already been used': 'used',
  'has expired: ask to be invited again': 'expired',
  'has been declined: ask to be invited again': 'declined',
};

export type Answer<T> = { ok: true; body: T } | { ok: false; problem: InvitationProblem };

/** POSTs the invitation token (and more fields) as JSON to an invitation endpoint of the gateway. */
async function post<T>(path: string, body: Record<string, unknown>): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
    });
  } catch {
    return { ok: false, problem: 'unavailable' };
  }
  const json = (await response.json().catch(() => null)) as unknown;
  if (response.ok) return { ok: true, body: json as T };
  return { ok: false, problem: problemOf(response.status, json) };
}

export function problemOf(status: number, body: unknown): InvitationProblem {
  if (status >= 500 || status === 429) return 'unavailable';
  const messages = (body as { errors?: { token?: unknown } } | null)?.errors?.token;
  const first = Array.isArray(messages) ? messages[0] : undefined;
  return (typeof first === 'string' && problemOfMessage[first]) || 'invalid';
}

export const openInvitation = (token: string) => post<AdminInvitation>('/api/v2/admin-invitations/open', { token });
export const answerInvitation = (token: string, choice: 'accept' | 'decline') =>
  post<Admin>(`/api/v2/admin-invitations/${choice}`, { token });
