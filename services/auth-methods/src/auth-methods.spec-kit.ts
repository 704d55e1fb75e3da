import { randomBytes } from 'node:crypto';
import { subjects } from '@sesame/contracts';
import type { Organization, RpcReply, User } from '@sesame/contracts';
import type { MailMessage, SentMail, SentSms, SmsMessage } from '@sesame/platform';
import { aUser, acmeId, anOrganization, serviceSpecification } from '@sesame/platform/testing';
import type { CallTable } from '@sesame/platform/testing';
import { assembleAuthMethods, authMethodsConfigSchema } from './index';

export { aUser, acmeId, anOrganization };

export const ok = (status: number, body: unknown): RpcReply => ({ ok: true, status, body });
export const notFound: RpcReply = {
  ok: false,
  error: { kind: 'error', code: 'resource_not_found' },
} as RpcReply;

/** Identity's answers about `organizations` and `users`, for the calls most flows make; `more` adds or replaces subjects. */
export function identityAnswers(organizations: Organization[], users: User[], more: CallTable = {}): CallTable {
  return {
    [subjects.identity.organizations.get]: (input: { params: { org_domain: string } }) => {
      const organization = organizations.find((candidate) => candidate.domain === input.params.org_domain);
      return organization ? ok(200, organization) : notFound;
    },
    [subjects.identity.users.findById]: (input: { id: string }) =>
      ok(200, { user: users.find((user) => user.id === input.id) ?? null }),
    [subjects.identity.users.findByEmail]: (input: { email: string }) =>
      ok(200, { user: users.find((user) => user.email === input.email) ?? null }),
    ...more,
  };
}

/**
 * The auth-methods service under specification: its real router, handlers and projections on
 * in-memory stores, identity answered by `calls`, mails and text messages kept in `mails` and `texts`.
 */
export async function authMethodsSpecification(calls: CallTable) {
  const config = authMethodsConfigSchema.parse({
    SESAME_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    SESAME_PUBLIC_URL: 'https://sesame.test',
  });
  const mails: MailMessage[] = [];
  const texts: SmsMessage[] = [];
  const stamp = { id: 'sent', from: 'Sesame', sent_at: '2026-01-01T00:00:00.000Z' };
  const mailer = {
    send: async (mail: MailMessage): Promise<SentMail> => (mails.push(mail), { ...mail, ...stamp, transport: 'outbox' }),
  };
  const sms = {
    send: async (text: SmsMessage): Promise<SentSms> => (texts.push(text), { ...text, ...stamp, transport: 'outbox' }),
  };
  const spec = await serviceSpecification({
    service: 'auth-methods',
    config,
    assemble: async (runtime, rpc) => void (await assembleAuthMethods(runtime, config, { rpc, mailer, sms })),
    calls,
  });
  return { spec, mails, texts, config };
}

/** The meta of a request made with a sandbox API key. */
export const sandboxKey = { environment: 'sandbox' as const, clientId: 'client-1' };
