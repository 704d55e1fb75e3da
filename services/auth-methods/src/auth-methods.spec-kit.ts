import { randomBytes } from 'node:crypto';
import { subjects } from '@sesame/contracts';
import type { Organization, RpcReply, User } from '@sesame/contracts';
import type { MailMessage, SentMail, SentSms, SmsMessage } from '@sesame/platform';
import { serviceSpecification } from '@sesame/platform/testing';
import type { CallTable } from '@sesame/platform/testing';
import { assembleAuthMethods, authMethodsConfigSchema } from './index';

export const ok = (status: number, body: unknown): RpcReply => ({ ok: true, status, body });
export const notFound: RpcReply = {
  ok: false,
  error: { kind: 'error', code: 'resource_not_found' },
} as RpcReply;

export const acmeId = '00000000-0000-4000-8000-0000000000ac';

/** The organization `acme` of the sandbox, as identity answers it. */
export function anOrganization(fields: Partial<Organization> = {}): Organization {
  return {
    __type__: 'Organization',
    __domain__: 'acme',
    __environment__: 'sandbox',
    id: acmeId,
    name: 'Acme',
    domain: 'acme',
    tenant_id: null,
    allowed_email_domains: ['acme.example'],
    allowed_authn_connections: ['password', 'magic_link', 'sso', 'totp'],
    color: null,
    icon_logo_url: null,
    inline_logo_url: null,
    locale: null,
    timezone: null,
    environments: [],
    status: { state: 'terminated', errors: [], progress_in_percentage: 100, estimated_time_to_complete_in_seconds: 0 },
    inserted_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as Organization;
}

/** A user of `acme`, as identity answers it. */
export function aUser(fields: Partial<User> = {}): User {
  return {
    __type__: 'User',
    __domain__: 'acme',
    __environment__: 'sandbox',
    id: '00000000-0000-4000-8000-0000000000a1',
    active: true,
    email: 'ada@acme.example',
    email_verified: true,
    phone_number: null,
    phone_number_verified: false,
    phone_numbers: [],
    address: { country: null, formatted: null, locality: null, postal_code: null, region: null, street_address: null },
    profile: {
      birthdate: null,
      family_name: 'Lovelace',
      given_name: 'Ada',
      gender: null,
      locale: null,
      nickname: null,
      picture: null,
      preferred_username: null,
      website: null,
      zoneinfo: null,
    },
    identities: [],
    metadata: {},
    inserted_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as User;
}

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
