import type { System } from './system';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: { rel: string; url: string }[];
}

/**
 * Invites an IT admin of an organization (`invitation`: more fields of the invitation, such as
 * `allowed_setups`) and returns the link of the invitation email (local outbox).
 */
export async function inviteAdmin(
  system: System,
  org: string,
  email: string,
  invitation: Record<string, unknown> = {},
): Promise<{ link: string; token: string; mail: OutboxMail }> {
  const invited = await system.request('POST', `/api/v2/org/${org}/admins`, { body: { email, ...invitation } });
  if (invited.status !== 201) throw new Error(`invite ${email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  const { body } = await system.request('GET', `/dev/outbox?to=${encodeURIComponent(email)}`, { token: null });
  const mail = body.data.at(-1) as OutboxMail;
  const link = mail.links.find((item) => item.rel === 'admin-invitation')?.url as string;
  return { link, token: new URL(link).searchParams.get('token') as string, mail };
}

/** The `sesame_onboarding` cookie a `Set-Cookie` header sets (empty when it removes it), or null. */
export function sessionCookieOf(headers: Headers): { value: string; setCookie: string } | null {
  const setCookie = headers.getSetCookie().find((cookie) => cookie.startsWith('sesame_onboarding='));
  return setCookie ? { value: /^sesame_onboarding=([^;]*)/.exec(setCookie)?.[1] as string, setCookie } : null;
}

/**
 * A call of the onboarding page, as the browser sends it: from Sesame's origin, with the session
 * cookie when there is one (`null`: none).
 */
export function onboardingCall(
  system: System,
  method: 'POST' | 'PUT',
  path: string,
  session: string | null,
  body: unknown = {},
  headers: Record<string, string> = {},
) {
  return system.request(method, `/api/v2/admin-invitations/${path}`, {
    token: null,
    body,
    headers: { origin: system.baseUrl, ...(session === null ? {} : { cookie: `sesame_onboarding=${session}` }), ...headers },
  });
}

/** Opens an invitation link as the onboarding page does: the answer, and the session cookie it set. */
export async function openInvitation(system: System, token: unknown, headers: Record<string, string> = {}) {
  const answer = await onboardingCall(system, 'POST', 'open', null, { token }, headers);
  return { ...answer, session: sessionCookieOf(answer.headers)?.value ?? null };
}

/** Invites an admin and opens the link: the session of the onboarding page. */
export async function onboardingSession(
  system: System,
  org: string,
  email: string,
  invitation: Record<string, unknown> = {},
): Promise<string> {
  const { token } = await inviteAdmin(system, org, email, invitation);
  const opened = await openInvitation(system, token);
  if (opened.status !== 200 || !opened.session) throw new Error(`open ${email}: ${opened.status} ${JSON.stringify(opened.body)}`);
  return opened.session;
}
