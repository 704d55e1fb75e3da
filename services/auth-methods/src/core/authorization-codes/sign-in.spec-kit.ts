import { randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTPayload } from 'jose';
import { catalogueError, subjects } from '@sesame/contracts';
import type { RpcReply, Token, TokenRequest, User, UserMetakey } from '@sesame/contracts';
import { DomainError, KeyRing, createLogger } from '@sesame/platform';
import { aUser as baseUser } from '@sesame/platform/testing';
import type { EventMetadata, EventStore, Metrics, RequestContext } from '@sesame/platform';
import { TokenEndpoint } from '../oauth/token-endpoint';
import { SigningKeys } from '../signing-keys/signing-keys';
import { AuthorizationCodes } from './authorization-codes';
import { authorizationCodeGrant, refreshTokenGrant } from './user-grants';
import { UserTokens } from './user-tokens';

export const issuerBase = 'https://sesame.test/t';
const logger = createLogger('test', 'silent');
/** One key ring per test process: replicas sharing a store read each other's signing keys. */
const keyRing = new KeyRing(`k1:${randomBytes(32).toString('base64')}`);
export const metadata = (): EventMetadata => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });
export const context: RequestContext = { meta: { correlationId: 'test' }, logger };

/** The API keys the kit's token endpoint knows. */
export const testClients = {
  'client-1': { secret: 'secret-1', environment: 'sandbox' },
  'client-2': { secret: 'secret-2', environment: 'sandbox' },
  'prod-1': { secret: 'secret-p', environment: 'production' },
} as const;
/** `client_id` and `client_secret` of client-1 (sandbox), as a confidential client sends them. */
export const client1 = { client_id: 'client-1', client_secret: 'secret-1' };

export function aUser(fields: Partial<User> = {}): User {
  return baseUser({ id: randomUUID(), email: 'ada@acme.com', ...fields });
}

/**
 * Authorization codes and user tokens on a given event store, with a stand-in for the identity
 * service (users and metakeys kept in memory) and the real token endpoint and signing keys.
 */
export async function signInKit(
  eventStore: EventStore,
  options: { codeTtlSeconds?: number; now?: () => Date; metrics?: Pick<Metrics, 'signIns'> } = {},
) {
  const now = options.now ?? (() => new Date());
  const signingKeys = new SigningKeys(eventStore, keyRing, { rotateAfterMs: 86_400_000, overlapMs: 3_600_000 }, logger, metadata);
  await signingKeys.rotate();
  const users = new Map<string, User>();
  const metakeys: UserMetakey[] = [];
  const identity = {
    call: async (subject: string, input: { id?: string; organization_domain?: string }) => {
      if (subject === subjects.identity.userMetakeys.active) return { data: metakeys };
      if (subject !== subjects.identity.users.findById) throw new Error(`unexpected ${subject}`);
      if (input.organization_domain !== 'acme') throw new DomainError(catalogueError('resource_not_found'));
      return { user: users.get(input.id as string) ?? null };
    },
  } as never;
  const commandDeps = { eventStore };
  /** The SSO connections that let subjects in without an account (`unregistered_users_allowed`). */
  const unregisteredAllowedBy = new Set<string>();
  const tokens = new UserTokens({
    commandDeps,
    signingKeys,
    identity,
    issuerOf: (organization) => `${issuerBase}/${organization}`,
    defaultAudience: 'https://sesame.test',
    accessTokenTtlSeconds: 36_000,
    refreshTokenTtlSeconds: 86_400,
    now,
    stillAllowsUnregistered: async (_session, subject) => unregisteredAllowedBy.has(subject.sso_connection_id),
  });
  const codes = new AuthorizationCodes({
    commandDeps,
    failureCommandDeps: commandDeps,
    tokens,
    ttlSeconds: options.codeTtlSeconds ?? 120,
    now,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const endpoint = new TokenEndpoint();
  endpoint.authenticateClientsWith(async (clientId, secret) => {
    const client = testClients[clientId as keyof typeof testClients];
    return client && client.secret === secret ? { client_id: clientId, environment: client.environment } : null;
  });
  endpoint.register('authorization_code', authorizationCodeGrant(codes, metadata));
  endpoint.register('refresh_token', refreshTokenGrant(tokens, metadata));

  /** The token endpoint as the gateway calls it: a reply, or the error a DomainError stands for. */
  const token = async (body: TokenRequest): Promise<RpcReply<Token>> => {
    try {
      return await endpoint.handle({ body }, context);
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, error: error.error };
      throw error;
    }
  };
  const verify = async (jwt: string, audience: string, organization = 'acme'): Promise<JWTPayload> => {
    const jwks = createLocalJWKSet((await signingKeys.jwks()) as unknown as JSONWebKeySet);
    return (await jwtVerify(jwt, jwks, { issuer: `${issuerBase}/${organization}`, audience, algorithms: ['RS256'] })).payload;
  };
  const addUser = (fields: Partial<User> = {}) => {
    const user = aUser(fields);
    users.set(user.id, user);
    return user;
  };
  return { codes, tokens, token, verify, addUser, users, metakeys, signingKeys, unregisteredAllowedBy };
}
