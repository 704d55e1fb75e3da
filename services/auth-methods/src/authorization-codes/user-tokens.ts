import { randomUUID } from 'node:crypto';
import { oauthError, subjects } from '@sesame/contracts';
import type { RpcMeta, SignInSession, Token, User, UserMetakey } from '@sesame/contracts';
import { DomainError, fail, handleCommand, hashSecret, randomSecret, streamName } from '@sesame/platform';
import type { CommandHandlerDeps, EventMetadata } from '@sesame/platform';
import { signToken } from '../oauth/access-token';
import type { IdentityClient } from '../identity/identity-client';
import type { SigningKeys } from '../signing-keys/signing-keys';
import { idTokenClaims } from './id-token-claims';
import { invalidRefreshToken, refreshTokenFamilyDecider } from './domain/refresh-token-family.decider';
import type { RefreshTokenFamilyState } from './domain/refresh-token-family.decider';

export const refreshTokenFamilyCategory = 'refreshTokenFamily';
export const refreshTokenFamilyStream = (familyId: string) => streamName(refreshTokenFamilyCategory, familyId);

export interface UserTokensEnv {
  commandDeps: CommandHandlerDeps<RefreshTokenFamilyState>;
  signingKeys: SigningKeys;
  identity: Pick<IdentityClient, 'call'>;
  /** Issuer of a tenant's user tokens (`<public url>/t/<org_domain>`). */
  issuerOf(organizationDomain: string): string;
  /** Audience when the sign-in named no client. */
  defaultAudience: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  now(): Date;
}

/** A refresh token is `<family id>.<secret>`; only the secret's hash is stored. */
const refreshTokenPattern = /^([0-9a-f-]{36})\.([\w-]{20,100})$/;

export function parseRefreshToken(token: string): { familyId: string; secret: string } | null {
  const match = refreshTokenPattern.exec(token);
  return match ? { familyId: match[1] as string, secret: match[2] as string } : null;
}

/** The sign-in fields of a state that carries more. */
export const sessionOf = (state: SignInSession): SignInSession => ({
  environment: state.environment,
  organization_domain: state.organization_domain,
  user_id: state.user_id,
  method: state.method,
  client_id: state.client_id,
  scope: state.scope,
  nonce: state.nonce,
  authenticated_at: state.authenticated_at,
});

/**
 * A signed-in user's tokens: RS256 access and ID tokens (claims read from identity at issue
 * time) and a refresh token whose family is event sourced, so rotation holds across replicas.
 */
export class UserTokens {
  constructor(private readonly env: UserTokensEnv) {}

  /** Tokens for a new sign-in (a relay, say): opens a refresh-token family and signs. */
  async start(session: SignInSession, metadata: EventMetadata): Promise<Token> {
    return this.mint(session, await this.open(session, metadata));
  }

  /** Checks the user and starts a refresh-token family; the tokens are signed by `mint`. */
  async open(session: SignInSession, metadata: EventMetadata): Promise<OpenedFamily> {
    const subject = await this.subjectOf(session, metadata);
    const familyId = randomUUID();
    const secret = randomSecret(32);
    await handleCommand(
      this.env.commandDeps,
      refreshTokenFamilyDecider,
      refreshTokenFamilyStream(familyId),
      {
        type: 'StartRefreshTokenFamily',
        data: {
          ...sessionOf(session),
          family_id: familyId,
          token_hash: hashSecret(secret),
          expires_at: this.refreshExpiry(),
          at: this.at(),
        },
      },
      metadata,
      { newStream: true },
    );
    return { familyId, refreshToken: `${familyId}.${secret}`, subject };
  }

  mint(session: SignInSession, family: OpenedFamily): Promise<Token> {
    return this.sign(session, family.subject, family.refreshToken);
  }

  /** Rotates a refresh token: the next one, with fresh access and ID tokens. */
  async refresh(refreshToken: string, metadata: EventMetadata): Promise<Token> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return fail(invalidRefreshToken());
    const secret = randomSecret(32);
    const { state } = await handleCommand(
      this.env.commandDeps,
      refreshTokenFamilyDecider,
      refreshTokenFamilyStream(parsed.familyId),
      {
        type: 'RotateRefreshToken',
        data: {
          presented_hash: hashSecret(parsed.secret),
          token_hash: hashSecret(secret),
          expires_at: this.refreshExpiry(),
          at: this.at(),
        },
      },
      metadata,
    );
    if (state.status !== 'active') return fail(invalidRefreshToken());
    return this.sign(state, await this.subjectOf(state, metadata), `${parsed.familyId}.${secret}`);
  }

  /** Revokes a family (a reused authorization code); a no-op when it is already revoked. */
  async revoke(familyId: string, reason: 'authorization_code_reused', metadata: EventMetadata): Promise<void> {
    await handleCommand(
      this.env.commandDeps,
      refreshTokenFamilyDecider,
      refreshTokenFamilyStream(familyId),
      { type: 'RevokeRefreshTokenFamily', data: { reason, at: this.at() } },
      metadata,
    );
  }

  private async sign(session: SignInSession, { user, metakeys }: Subject, refreshToken: string): Promise<Token> {
    const key = await this.env.signingKeys.current();
    const common = {
      issuer: this.env.issuerOf(session.organization_domain),
      subject: user.id,
      tenant: session.organization_domain,
      clientId: session.client_id ?? '',
      environment: session.environment,
      scopes: session.scope.split(' '),
      ttlSeconds: this.env.accessTokenTtlSeconds,
    };
    const audience = session.client_id ?? this.env.defaultAudience;
    const now = this.env.now();
    const [accessToken, idToken] = await Promise.all([
      signToken({ ...common, audience, kind: 'access', extra: { email: user.email } }, key, now),
      signToken({ ...common, audience, kind: 'openid', extra: idTokenClaims(user, metakeys, session) }, key, now),
    ]);
    return {
      access_token: accessToken,
      id_token: idToken,
      refresh_token: refreshToken,
      expires_in: this.env.accessTokenTtlSeconds,
      scope: session.scope,
      token_type: 'Bearer',
    };
  }

  /** The user as identity knows it now, and the registered metakeys; a deleted or deactivated user gets no tokens. */
  private async subjectOf(session: SignInSession, metadata: EventMetadata): Promise<Subject> {
    const rpcMeta: RpcMeta = { correlationId: metadata.correlationId, environment: session.environment };
    const { organization_domain, environment, user_id: id } = session;
    try {
      const [{ user }, { data: metakeys }] = await Promise.all([
        this.env.identity.call(subjects.identity.users.findById, { organization_domain, environment, id }, rpcMeta),
        this.env.identity.call(subjects.identity.userMetakeys.active, { environment }, rpcMeta),
      ]);
      if (user?.active) return { user, metakeys };
    } catch (error) {
      const unknownOrganization =
        error instanceof DomainError && error.error.kind === 'error' && error.error.code === 'resource_not_found';
      if (!unknownOrganization) throw error;
    }
    return fail(oauthError('invalid_grant', 'The user of this grant no longer exists or is inactive'));
  }

  private at = () => this.env.now().toISOString();
  private refreshExpiry = () => new Date(this.env.now().getTime() + this.env.refreshTokenTtlSeconds * 1_000).toISOString();
}

interface Subject {
  user: User;
  metakeys: UserMetakey[];
}

export interface OpenedFamily {
  familyId: string;
  refreshToken: string;
  subject: Subject;
}
