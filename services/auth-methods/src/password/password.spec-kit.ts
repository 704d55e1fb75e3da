import { subjects } from '@sesame/contracts';
import type { User } from '@sesame/contracts';
import { KeyRing, MemoryEventStore, createLogger } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { aUser, metadata, signInKit } from '../authorization-codes/sign-in.spec-kit';
import { PasswordHasher } from './password-hasher';
import { passwordLists } from './password-lists';
import type { PasswordEnv } from './password.env';

/**
 * The password handlers on an in-memory event store with a settable clock, the real hasher and
 * lists, and a stand-in for identity (organization `acme` for every email, users kept here).
 */
export async function passwordKit() {
  const eventStore = new MemoryEventStore();
  const clock = { now: new Date('2026-03-01T12:00:00.000Z') };
  const codes = await signInKit(eventStore, { now: () => clock.now });
  const users = new Map<string, User>();
  /** Every `users.modify` request identity received. */
  const modified: unknown[] = [];
  const env: PasswordEnv = {
    commandDeps: () => ({ eventStore }),
    eventStore,
    metadata,
    identity: {
      call: async (subject: string, input: { email?: string; id?: string }) => {
        if (subject === subjects.identity.organizations.forSignIn) return { organization: { domain: 'acme' } };
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
    } as never,
    organizations: { get: async () => ({}) } as never,
    hasher: new PasswordHasher(new KeyRing(KeyRing.generateKeySpec())),
    lists: passwordLists(),
    breachRange: null,
    mailer: { send: async () => ({}) } as never,
    authorizationCodes: codes.codes,
    now: () => clock.now,
  };
  const context: RequestContext = {
    meta: { correlationId: 'test', environment: 'sandbox', clientId: 'client-1' },
    logger: createLogger('test', 'silent'),
  };
  const addUser = (email: string, fields: Partial<User> = {}) => {
    const user = aUser({ email, ...fields });
    users.set(user.id, user);
    return user;
  };
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  return { env, context, eventStore, advance, addUser, users, modified };
}
