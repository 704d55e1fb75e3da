import { randomUUID } from 'node:crypto';
import { oauthError, subjects } from '@sesame/contracts';
import type { RefreshTokenFamilyEvent, RpcMeta, SignInSession, Token, UnregisteredSubject } from '@sesame/contracts';
import { Aggregate, DomainError, fail, hashSecret, randomSecret, streamName } from '@sesame/platform';
import type { CommandHandlerDeps, EventMetadata } from '@sesame/platform';
import { signToken } from '../oauth/access-token';
import type { IdentityClient } from '../identity/identity-client';
import type { TokenClient } from '../oauth/token-endpoint';
import type { SigningKeys } from '../signing-keys/signing-keys';
import { idTokenClaims, unregisteredIdTokenClaims } from './id-token-claims';
import { invalidRefreshToken, refreshTokenFamilyDecider } from './domain/refresh-token-family.decider';
import type { RefreshTokenFamilyCommand, RefreshTokenFamilyState } from './domain/refresh-token-family.decider';
import { stillHasProvenAddress } from '../identity/mailbox-proof';

export const refreshTokenFamilyCategory = 'refreshTokenFamily';
export const refreshTokenFamilyStream = (familyId: string) => streamName(refreshTokenFamilyCategory, familyId);

export interface UserTokensDeps {
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
  /**
   * Whether the SSO connection that let a subject in without an account still does: it exists (the
   * same one, not a namesake re-created since), is active and still allows unregistered users.
   */
  stillAllowsUnregistered(session: SignInSession, subject: UnregisteredSubject): Promise<boolean>;
}

const noLongerSignedIn = oauthError('invalid_grant', 'The user of this grant no longer exists or is inactive');

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
  ...(state.organization_id ? { organization_id: state.organization_id } : {}),
  user_id: state.user_id,
  method: state.method,
  client_id: state.client_id,
  scope: state.scope,
  nonce: state.nonce,
  authenticated_at: state.authenticated_at,
  ...(state.unregistered ? { unregistered: state.unregistered } : {}),
});

/**
 * A signed-in user's tokens: RS256 access and ID tokens (claims read from identity at issue
 * time) and a refresh token whose family is event sourced, so rotation holds across replicas.
 */
export class UserTokens {
  private readonly families: Aggregate<RefreshTokenFamilyState, RefreshTokenFamilyCommand, RefreshTokenFamilyEvent>;

  constructor(private readonly deps: UserTokensDeps) {
    this.families = new Aggregate(deps.commandDeps, { decider: refreshTokenFamilyDecider, stream: refreshTokenFamilyStream });
  }

  /** Tokens for a new sign-in (a relay, say): opens a refresh-token family and signs. */
  async start(session: SignInSession, metadata: EventMetadata, options: FamilyOptions): Promise<Token> {
    return this.mint(session, await this.open(session, metadata, options));
  }

  /** Checks the user and starts a refresh-token family; the tokens are signed by `mint`. */
  async open(session: SignInSession, metadata: EventMetadata, options: FamilyOptions): Promise<OpenedFamily> {
    const subject = await this.subjectOf(session, metadata);
    const familyId = randomUUID();
    const secret = randomSecret(32);
    const sessionExpiresAt = options.sessionExpiresAt ?? null;
    const expiresAt = this.refreshExpiry();
    await this.families.handle(
      familyId,
      {
        type: 'StartRefreshTokenFamily',
        data: {
          ...sessionOf(session),
          family_id: familyId,
          token_hash: hashSecret(secret),
          expires_at: sessionExpiresAt && sessionExpiresAt < expiresAt ? sessionExpiresAt : expiresAt,
          at: this.at(),
          confidential: options.confidential,
          session_expires_at: sessionExpiresAt,
        },
      },
      metadata,
      { newStream: true },
    );
    return { familyId, refreshToken: `${familyId}.${secret}`, subject, sessionExpiresAt };
  }

  /**
   * Records that the session's user proved they hold their mailbox (a magic link they opened):
   * once, at the code's exchange, never at a refresh (the email may have changed since).
   */
  async markEmailVerified(session: SignInSession, provenEmail: string, metadata: EventMetadata): Promise<void> {
    const { organization_domain, environment, user_id: id } = session;
    const rpcMeta: RpcMeta = { correlationId: metadata.correlationId, environment };
    try {
      const { user } = await this.deps.identity.call(
        subjects.identity.users.findById,
        { organization_domain, environment, id },
        rpcMeta,
      );
      if (!user?.active || user.email_verified || !stillHasProvenAddress(user, provenEmail)) return;
      await this.deps.identity.call(
        subjects.identity.users.modify,
        { organization_domain, environment, id, email_verified: true },
        rpcMeta,
      );
    } catch (error) {
      // A user or organization gone meanwhile: `open` refuses the sign-in.
      if (!(error instanceof DomainError)) throw error;
    }
  }

  mint(session: SignInSession, family: OpenedFamily): Promise<Token> {
    return this.sign(session, family.subject, family.refreshToken, family.sessionExpiresAt);
  }

  /**
   * Rotates a refresh token: the next one, with fresh access and ID tokens. `client` is the API
   * key that authenticated (null: none), `clientId` the one the request named.
   */
  async refresh(
    refreshToken: string,
    client: TokenClient | null,
    clientId: string | undefined,
    metadata: EventMetadata,
  ): Promise<Token> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return fail(invalidRefreshToken());
    const secret = randomSecret(32);
    const { state } = await this.families.handle(
      parsed.familyId,
      {
        type: 'RotateRefreshToken',
        data: {
          presented_hash: hashSecret(parsed.secret),
          token_hash: hashSecret(secret),
          expires_at: this.refreshExpiry(),
          at: this.at(),
          client,
          ...(clientId !== undefined ? { client_id: clientId } : {}),
        },
      },
      metadata,
    );
    if (state.status !== 'active') return fail(invalidRefreshToken());
    const subject = await this.subjectOf(state, metadata);
    return this.sign(state, subject, `${parsed.familyId}.${secret}`, state.session_expires_at);
  }

  /** Revokes a family (a reused authorization code); a no-op when it is already revoked. */
  async revoke(familyId: string, reason: 'authorization_code_reused', metadata: EventMetadata): Promise<void> {
    const command = { type: 'RevokeRefreshTokenFamily' as const, data: { reason, at: this.at() } };
    await this.families.handle(familyId, command, metadata);
  }

  private async sign(
    session: SignInSession,
    subject: Subject,
    refreshToken: string,
    sessionExpiresAt: string | null,
  ): Promise<Token> {
    const key = await this.deps.signingKeys.current();
    const now = this.deps.now();
    const ttlSeconds = accessTokenTtl(this.deps.accessTokenTtlSeconds, sessionExpiresAt, now);
    const common = {
      issuer: this.deps.issuerOf(session.organization_domain),
      subject: subject.id,
      tenant: session.organization_domain,
      clientId: session.client_id ?? '',
      environment: session.environment,
      scopes: session.scope.split(' '),
      ttlSeconds,
    };
    const audience = session.client_id ?? this.deps.defaultAudience;
    const [accessToken, idToken] = await Promise.all([
      signToken({ ...common, audience, kind: 'access', extra: { email: subject.email } }, key, now),
      signToken({ ...common, audience, kind: 'openid', extra: subject.idTokenClaims }, key, now),
    ]);
    return {
      access_token: accessToken,
      id_token: idToken,
      refresh_token: refreshToken,
      expires_in: ttlSeconds,
      scope: session.scope,
      token_type: 'Bearer',
    };
  }

  /**
   * The user as identity knows it now, with the registered metakeys; a deleted or deactivated user
   * gets no tokens. A SAML subject without an account is who its assertion said.
   */
  private async subjectOf(session: SignInSession, metadata: EventMetadata): Promise<Subject> {
    const { unregistered } = session;
    if (unregistered) {
      if (!(await this.deps.stillAllowsUnregistered(session, unregistered))) return fail(noLongerSignedIn);
      return { id: session.user_id, email: unregistered.email, idTokenClaims: unregisteredIdTokenClaims(unregistered, session) };
    }
    const rpcMeta: RpcMeta = { correlationId: metadata.correlationId, environment: session.environment };
    const { organization_domain, environment, user_id: id } = session;
    try {
      const [{ user }, { data: metakeys }] = await Promise.all([
        this.deps.identity.call(subjects.identity.users.findById, { organization_domain, environment, id }, rpcMeta),
        this.deps.identity.call(subjects.identity.userMetakeys.active, { environment }, rpcMeta),
      ]);
      if (user?.active) return { id: user.id, email: user.email, idTokenClaims: idTokenClaims(user, metakeys, session) };
    } catch (error) {
      const unknownOrganization =
        error instanceof DomainError && error.error.kind === 'error' && error.error.code === 'resource_not_found';
      if (!unknownOrganization) throw error;
    }
    return fail(noLongerSignedIn);
  }

  private at = () => this.deps.now().toISOString();
  private refreshExpiry = () => new Date(this.deps.now().getTime() + this.deps.refreshTokenTtlSeconds * 1_000).toISOString();
}

/** The configured access-token lifetime, cut to what is left of a bounded session (to the second, at least one). */
export function accessTokenTtl(configured: number, sessionExpiresAt: string | null, now: Date): number {
  if (!sessionExpiresAt) return configured;
  const left = Math.ceil((Date.parse(sessionExpiresAt) - now.getTime()) / 1_000);
  return Math.max(1, Math.min(configured, left));
}

export interface FamilyOptions {
  /** The client authenticated (client secret): it must authenticate again to refresh. */
  confidential: boolean;
  /** End of the session (a relay's `session_duration_minutes`). */
  sessionExpiresAt?: string | null;
}

/** Who the tokens are for: `sub`, the access token's `email`, and the ID token's claims. */
interface Subject {
  id: string;
  email: string;
  idTokenClaims: Record<string, unknown>;
}

export interface OpenedFamily {
  familyId: string;
  refreshToken: string;
  subject: Subject;
  sessionExpiresAt: string | null;
}
