import { subjects } from '@sesame/contracts';
import type { Environment, Organization, PasswordConnectionSettings, RpcMeta } from '@sesame/contracts';
import { Aggregate, streamName } from '@sesame/platform';
import type {
  CommandHandlerDeps,
  Decider,
  DomainEvent,
  EventMetadata,
  KeyRing,
  Mailer,
  MessageTemplates,
  RequestContext,
} from '@sesame/platform';
import type { AuthorizationCodes } from '../../core/authorization-codes/authorization-codes';
import { requireAuthnConnection } from '../../core/identity/authn-connections';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import { passwordConnectionDecider, settingsOf } from './domain/password-connection.decider';
import type { PasswordLists } from './domain/password-policy';
import type { BreachRange } from './breach-range';
import type { PasswordHasher } from './password-hasher';

/** What `registerPassword` is given. */
export interface PasswordServices {
  identity: IdentityClient;
  organizations: Organizations;
  keyRing: KeyRing;
  mailer: Mailer;
  authorizationCodes: AuthorizationCodes;
  breachRange: BreachRange | null;
}

/** What the password handlers share. */
export interface PasswordDeps {
  commandDeps<State>(): CommandHandlerDeps<State>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  identity: IdentityClient;
  organizations: Organizations;
  hasher: PasswordHasher;
  lists: PasswordLists;
  /** The optional k-anonymity breach lookup (`SESAME_PASSWORD_BREACH_RANGE_URL`). */
  breachRange: Pick<BreachRange, 'isBreached'> | null;
  mailer: Mailer;
  /** The wording of the reset email, in the organization's language. */
  messages: MessageTemplates;
  authorizationCodes: AuthorizationCodes;
  now(): Date;
}

export const passwordConnectionStream = (environment: Environment, organizationDomain: string) =>
  streamName('passwordConnection', `${environment}:${organizationDomain}`);
export const passwordStream = (userId: string) => streamName('password', userId);
export const passwordAttemptsStream = (environment: Environment, organizationDomain: string, email: string) =>
  streamName('passwordAttempts', `${environment}:${organizationDomain}:${email.trim().toLowerCase()}`);
export const passwordCodeStream = (codeHash: string) => streamName('passwordCode', codeHash);

export const rpcMeta = (context: RequestContext, environment: Environment): RpcMeta => ({
  correlationId: context.meta.correlationId,
  environment,
});

/** An aggregate's current state, read from its stream (strongly consistent across replicas). */
export async function load<State, Command, Event extends DomainEvent>(
  deps: Pick<PasswordDeps, 'commandDeps'>,
  decider: Decider<State, Command, Event>,
  stream: string,
): Promise<State> {
  const aggregate = new Aggregate(deps.commandDeps<State>(), { decider, stream: () => stream });
  return (await aggregate.load(stream)).state;
}

export async function connectionOf(
  deps: PasswordDeps,
  environment: Environment,
  organizationDomain: string,
): Promise<PasswordConnectionSettings> {
  return settingsOf(await load(deps, passwordConnectionDecider, passwordConnectionStream(environment, organizationDomain)));
}

/**
 * The organization a password operation is for: `org_domain`, or the only one allowing the email's
 * domain (422 otherwise); a sign-in (`method` given) also needs the organization to allow it.
 */
export async function signInOrganization(
  deps: PasswordDeps,
  email: string,
  orgDomain: string | undefined,
  meta: RpcMeta,
  method?: 'password',
): Promise<string> {
  return (await signInOrganizationOf(deps, email, orgDomain, meta, method)).domain;
}

/** As `signInOrganization`, the whole organization (its name, locale and time zone word its emails). */
export async function signInOrganizationOf(
  deps: PasswordDeps,
  email: string,
  orgDomain: string | undefined,
  meta: RpcMeta,
  method?: 'password',
): Promise<Organization> {
  const { organization } = await deps.identity.call(
    subjects.identity.organizations.forSignIn,
    { email, ...(orgDomain ? { org_domain: orgDomain } : {}) },
    meta,
  );
  if (method) requireAuthnConnection(organization, method);
  return organization;
}
