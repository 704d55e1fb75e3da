import { defaultScopes, subjects } from '@sesame/contracts';
import type { Environment, Organization, User } from '@sesame/contracts';
import { Aggregate, KeyRing, MemoryEventStore, createLogger, shippedMessageTemplates } from '@sesame/platform';
import type { MailMessage, RequestContext } from '@sesame/platform';
import { IdentityClient } from '../../core/identity/identity-client';
import { aUser, metadata, signInKit } from '../../core/authorization-codes/sign-in.spec-kit';
import { PasswordHasher } from './password-hasher';
import { passwordLists } from './password-lists';
import type { PasswordDeps } from './password.deps';

/**
 * The password handlers on an in-memory event store with a settable clock, the real hasher and
 * lists, and a stand-in for identity (organization `acme` for every email, users kept here).
 */
export async function passwordKit() {
  const eventStore = new MemoryEventStore();
  const clock = { now: new Date('2026-03-01T12:00:00.000Z') };
  const codes = await signInKit(eventStore, { now: () => clock.now });
  const users = new Map<string, User>();
  /** Organization `acme`, as identity answers it (tests change its allowed_authn_connections). */
  const organization: Pick<Organization, 'id' | 'domain' | 'name' | 'locale' | 'timezone' | 'allowed_authn_connections'> = {
    id: 'a5f0c5a2-0000-4000-8000-000000000001',
    domain: 'acme',
    name: 'Acme',
    locale: null,
    timezone: null,
    allowed_authn_connections: ['sso', 'password', 'magic_link', 'totp'],
  };
  /** Every `users.modify` request identity received. */
  const modified: unknown[] = [];
  /** Redirect URIs registered in the environment; the first is the default one. */
  const redirectUris = ['https://app.acme.com/reset', 'https://app.acme.com/welcome'];
  /** Every email sent. */
  const mails: MailMessage[] = [];
  // The real client's methods (redirect URI resolution) over this stand-in's `call`.
  const identity = Object.assign(Object.create(IdentityClient.prototype) as IdentityClient, {
    call: async (subject: string, input: { email?: string; id?: string; url?: string }) => {
      if (subject === subjects.identity.redirectUris.check)
        return { registered: redirectUris.includes(input.url as string), default_url: redirectUris[0] ?? null };
      if (subject === subjects.identity.organizations.forSignIn) return { organization };
      if (subject === subjects.identity.users.findByEmail)
        return { user: [...users.values()].find((user) => user.email === input.email) ?? null };
      if (subject === subjects.identity.users.findById) return { user: users.get(input.id as string) ?? null };
      if (subject === subjects.identity.users.findOrCreate) {
        const found = [...users.values()].find((user) => user.email === input.email);
        return { user: found ?? addUser(input.email as string), created: !found };
      }
      if (subject === subjects.identity.users.modify) {
        const { id, email_verified } = input as { id: string; email_verified?: boolean };
        const user = { ...(users.get(id) as User), ...(email_verified !== undefined ? { email_verified } : {}) };
        modified.push(input);
        users.set(id, user);
        return user;
      }
      throw new Error(`unexpected ${subject}`);
    },
  });
  const deps: PasswordDeps = {
    aggregate: (type) => new Aggregate({ eventStore }, type),
    metadata,
    identity,
    organizations: { get: async () => organization } as never,
    hasher: new PasswordHasher(new KeyRing(KeyRing.generateKeySpec())),
    lists: passwordLists(),
    breachRange: null,
    mailer: { send: async (mail: MailMessage) => (mails.push(mail), {}) } as never,
    messages: shippedMessageTemplates(),
    authorizationCodes: codes.codes,
    now: () => clock.now,
  };
  /** A request made with a key holding `scopes` (by default those of a key created without `--scopes`), of `environment`. */
  const contextWith = (scopes: readonly string[] = defaultScopes, environment: Environment = 'sandbox'): RequestContext => ({
    meta: { correlationId: 'test', environment, clientId: 'client-1', scopes: [...scopes] },
    logger: createLogger('test', 'silent'),
  });
  const context = contextWith();
  const addUser = (email: string, fields: Partial<User> = {}) => {
    const user = aUser({ email, ...fields });
    users.set(user.id, user);
    return user;
  };
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  return { deps, context, contextWith, eventStore, advance, addUser, users, modified, redirectUris, mails, organization };
}
