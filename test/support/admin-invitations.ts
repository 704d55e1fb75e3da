import type { System } from './system';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: { rel: string; url: string }[];
}

/** Invites an IT admin of an organization and returns the link of the invitation email (local outbox). */
export async function inviteAdmin(system: System, org: string, email: string): Promise<{ link: string; token: string }> {
  const invited = await system.request('POST', `/api/v2/org/${org}/admins`, { body: { email } });
  if (invited.status !== 201) throw new Error(`invite ${email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  const { body } = await system.request('GET', `/dev/outbox?to=${encodeURIComponent(email)}`, { token: null });
  const mail = body.data.at(-1) as OutboxMail;
  const link = mail.links.find((item) => item.rel === 'admin-invitation')?.url as string;
  return { link, token: new URL(link).searchParams.get('token') as string };
}
