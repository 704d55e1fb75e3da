/**
 * Authorization codes: how every sign-in ends (password, magic link, TOTP, SSO, relay).
 *
 * A sign-in method that has verified a user calls
 * `authorizationCodes.issue({ environment, organizationDomain, userId, method, redirectUri?, clientId?, nonce?, scope?, authenticatedAt? }, metadata)`
 * and answers (or redirects with) the `code` it returns: a random one-time secret, valid
 * `SESAME_AUTHORIZATION_CODE_TTL_SECONDS` (120 s by default), stored only as its SHA-256 in the
 * event stream `authorizationCode-<hash>`. `method` is one of `signInMethods`
 * (`password`, `magic_link`, `totp`, `sso`, `relay`) and becomes the ID token's `amr`; `clientId`
 * is the API key that started the sign-in (`context.meta.clientId`) and becomes the ID token's
 * `aud`; `nonce` is copied into the ID token. `redirectUri` must already be checked by the caller
 * (`IdentityClient.resolveRedirectUri` answers a registered one or the environment's default);
 * when the token request names a `redirect_uri` it must be this one. `metadata` is
 * `runtime.metadata(context)`. The integrator exchanges the code at `POST /oauth/token`
 * (`grant_type=authorization_code&code=...`) for `{ access_token, id_token, refresh_token,
 * expires_in, scope, token_type }`; redeeming appends with the expected stream revision, so a
 * code works once across all replicas, and presenting it again revokes the tokens it gave.
 * Refresh tokens rotate at each `grant_type=refresh_token`; reusing a rotated one revokes the
 * family. A grant that mints tokens for a user without a code (relay) calls `UserTokens.start`
 * (`session` as in `SignInSession`).
 */
import type {
  AuthorizationCodeEvent,
  CodeExchangeFailureEvent,
  Environment,
  SignInMethod,
  Token,
  TokenRequest,
  UnregisteredSubject,
} from '@sesame/contracts';
import { Aggregate, DomainError, hashSecret, randomSecret, streamName } from '@sesame/platform';
import type { CommandHandlerDeps, EventMetadata, Metrics } from '@sesame/platform';
import { authorizationCodeDecider, checkRedemption, redemptionRefusal } from './domain/authorization-code.decider';
import { codeExchangeFailuresDecider } from './domain/code-exchange-failures.decider';
import type { CodeExchangeFailuresCommand, CodeExchangeFailuresState } from './domain/code-exchange-failures.decider';
import type { TokenClient } from '../oauth/token-endpoint';
import type {
  AuthorizationCodeCommand,
  AuthorizationCodeState,
  RedeemableCode,
  Redemption,
} from './domain/authorization-code.decider';
import type { OpenedFamily, UserTokens } from './user-tokens';

export interface AuthorizationCodeRequest {
  environment: Environment;
  organizationDomain: string;
  /** The organization's id, when the sign-in knows it: the code's and its tokens' events then carry it as their tenant. */
  organizationId?: string | null;
  userId: string;
  method: SignInMethod;
  redirectUri?: string;
  clientId?: string;
  nonce?: string;
  /** Space-separated; `openid email profile` by default. */
  scope?: string;
  /** When the user proved who they are; now by default. */
  authenticatedAt?: Date;
  /** Lifetime of this code when not the configured one (a magic link lives 10 minutes). */
  ttlSeconds?: number;
  /** PKCE S256 challenge (`code_challenge` of the sign-in request): the exchange then needs its verifier. */
  codeChallenge?: string;
  /** A SAML subject without an account: `userId` is its stable subject id (see `SignInSession`). */
  unregistered?: UnregisteredSubject;
  /** The address the code is mailed to, when the email alone carries it: its exchange verifies that address. */
  provenEmail?: string | null;
}

export interface IssuedAuthorizationCode {
  code: string;
  expires_at: string;
  redirect_uri: string | null;
}

export interface AuthorizationCodesDeps {
  commandDeps: CommandHandlerDeps<AuthorizationCodeState>;
  /** Where the refused exchanges of issued codes are recorded (the organization's sign-in activity). */
  failureCommandDeps: CommandHandlerDeps<CodeExchangeFailuresState>;
  tokens: UserTokens;
  ttlSeconds: number;
  now(): Date;
  /** Counts magic-link sign-ins: the code mailed is the user's proof, checked at its exchange. */
  metrics?: Pick<Metrics, 'signIns'>;
}

export const authorizationCodeCategory = 'authorizationCode';
const codeStream = (code: string) => streamName(authorizationCodeCategory, hashSecret(code));
/** The refused exchanges of a code, named by its hash as the code's stream is. */
const failuresStream = (code: string) => streamName('codeExchangeFailures', hashSecret(code));
export const defaultUserScope = 'openid email profile';

/** A code's aggregate, named by the code itself: its stream holds only the code's hash. */
export type AuthorizationCodeAggregate = Aggregate<AuthorizationCodeState, AuthorizationCodeCommand, AuthorizationCodeEvent>;

export class AuthorizationCodes {
  private readonly codes: AuthorizationCodeAggregate;
  private readonly failures: Aggregate<CodeExchangeFailuresState, CodeExchangeFailuresCommand, CodeExchangeFailureEvent>;

  constructor(private readonly deps: AuthorizationCodesDeps) {
    this.codes = new Aggregate(deps.commandDeps, { decider: authorizationCodeDecider, stream: codeStream });
    this.failures = new Aggregate(deps.failureCommandDeps, { decider: codeExchangeFailuresDecider, stream: failuresStream });
  }

  async issue(request: AuthorizationCodeRequest, metadata: EventMetadata): Promise<IssuedAuthorizationCode> {
    const code = randomSecret(32);
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + (request.ttlSeconds ?? this.deps.ttlSeconds) * 1_000).toISOString();
    const redirectUri = request.redirectUri ?? null;
    await this.codes.handle(
      code,
      {
        type: 'IssueAuthorizationCode',
        data: {
          code_hash: hashSecret(code),
          environment: request.environment,
          organization_domain: request.organizationDomain,
          ...(request.organizationId ? { organization_id: request.organizationId } : {}),
          user_id: request.userId,
          method: request.method,
          client_id: request.clientId ?? null,
          scope: request.scope ?? defaultUserScope,
          nonce: request.nonce ?? null,
          authenticated_at: Math.floor((request.authenticatedAt ?? now).getTime() / 1_000),
          redirect_uri: redirectUri,
          expires_at: expiresAt,
          at: now.toISOString(),
          code_challenge: request.codeChallenge ?? null,
          ...(request.unregistered ? { unregistered: request.unregistered } : {}),
          ...(request.provenEmail ? { proven_email: request.provenEmail } : {}),
        },
      },
      metadata,
      { newStream: true },
    );
    return { code, expires_at: expiresAt, redirect_uri: redirectUri };
  }

  /**
   * `grant_type=authorization_code`, check → act → commit on the code: checks the code and how
   * the client proves it is its own (client authentication or PKCE), opens the refresh-token
   * family, redeems the code naming that family (once: of concurrent exchanges on any replicas
   * one wins, the others find it used), then signs. `client` is the API key that authenticated, or null.
   */
  async exchange(request: TokenRequest & { code: string }, client: TokenClient | null, metadata: EventMetadata): Promise<Token> {
    const redemption = this.redemptionOf(request, client);
    // What the exchange saw and opened, for the tokens and the sign-in metrics.
    const seen: { state?: AuthorizationCodeState; code?: RedeemableCode; family?: OpenedFamily } = {};
    try {
      await this.codes.execute(
        request.code,
        {
          check: ({ state }) => checkRedemption(redemption, (seen.state = state)),
          act: async (code) => {
            // The code came through the user's mailbox only: the ID token already says the email is verified.
            if (code.proven_email) await this.deps.tokens.markEmailVerified(code, code.proven_email, metadata);
            const family = await this.deps.tokens.open(code, metadata, { confidential: client !== null });
            Object.assign(seen, { code, family });
            return { type: 'RedeemAuthorizationCode', data: { ...redemption, family_id: family.familyId } };
          },
        },
        metadata,
      );
      const { code, family } = seen;
      if (!code || !family) throw new Error('A redeemed authorization code opened no refresh-token family');
      const token = await this.deps.tokens.mint(code, family);
      if (code.method === 'magic_link') this.deps.metrics?.signIns.inc({ method: 'magic_link', outcome: 'success' });
      return token;
    } catch (error) {
      if (error instanceof DomainError) {
        await this.revokeIfReused(request.code, metadata);
        if (seen.state && seen.state.status !== 'empty') await this.recordFailure(request.code, redemption, seen.state, metadata);
      }
      if (seen.state && seen.state.status !== 'empty' && seen.state.method === 'magic_link')
        this.deps.metrics?.signIns.inc({ method: 'magic_link', outcome: error instanceof DomainError ? 'failure' : 'error' });
      throw error;
    }
  }

  /**
   * A refused exchange of an issued code, recorded for its organization's sign-in activity: who
   * signed in, how, and why the exchange was refused (never the code nor its verifier). A side
   * effect of the refusal, which stays the answer: an error of the exchange that is no refusal of
   * the code is not recorded, and a recording that keeps conflicting (parallel refusals) is dropped.
   */
  private async recordFailure(code: string, redemption: Redemption, state: RedeemableCode, metadata: EventMetadata) {
    const refused = redemptionRefusal(redemption, state);
    if (!refused) return;
    const { environment, organization_domain, organization_id, user_id, method, client_id } = state;
    const data = {
      environment,
      organization_domain,
      ...(organization_id ? { organization_id } : {}),
      user_id,
      method,
      client_id,
      reason: refused.reason,
      at: redemption.at,
    };
    try {
      await this.failures.handle(code, { type: 'RecordCodeExchangeFailure', data }, metadata);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }

  private redemptionOf(request: TokenRequest, client: TokenClient | null): Redemption {
    return {
      ...(request.redirect_uri !== undefined ? { redirect_uri: request.redirect_uri } : {}),
      ...(request.client_id !== undefined ? { client_id: request.client_id } : {}),
      ...(request.code_verifier !== undefined ? { code_verifier: request.code_verifier } : {}),
      client,
      at: this.deps.now().toISOString(),
    };
  }

  /** A code presented after its exchange leaked: the tokens it gave are revoked (RFC 6749 section 4.1.2). */
  private async revokeIfReused(code: string, metadata: EventMetadata): Promise<void> {
    const { state } = await this.codes.load(code);
    if (state.status === 'redeemed' && state.family_id)
      await this.deps.tokens.revoke(state.family_id, 'authorization_code_reused', metadata);
  }
}
