import { createHash } from 'node:crypto';
import type { Environment, SsoChallengeEvent, UnregisteredSubject } from '@sesame/contracts';
import { Aggregate, streamName } from '@sesame/platform';
import type { AggregateType, EventMetadata, KeyRing } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { IdentityClient } from '../../../core/identity/identity-client';
import type { Organizations } from '../../../core/identity/organizations';
import { ssoChallengeDecider } from '../domain/sso-challenge.decider';
import type { SsoChallengeCommand, SsoChallengeState } from '../domain/sso-challenge.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { oidcRedirectUri } from '../domain/sp-values';
import type { RelyingPartySettings } from '../oidc/relying-party';
import type { ResponseExpectations, ValidationResult } from '../saml/response-validator';

/** Issues the one-time authorization code a sign-in ends with (the authorization-code module). */
export type IssueSignInCode = (
  request: {
    environment: Environment;
    organizationDomain: string;
    organizationId: string | null;
    userId: string;
    redirectUri: string;
    clientId?: string;
    codeChallenge?: string;
    unregistered?: UnregisteredSubject;
  },
  metadata: EventMetadata,
) => Promise<{ code: string }>;

export interface SignInDeps {
  runtime: ServiceRuntime;
  identity: IdentityClient;
  organizations: Pick<Organizations, 'get'>;
  keyRing: KeyRing;
  publicUrl: string;
  findConnection(spId: string): Promise<PresentSsoConnection | null>;
  issueCode: IssueSignInCode;
  challengeTtlMs: number;
  clockSkewMs: number;
  /** `validateSamlResponse`, run where it does not hold the event loop (the validation pool). */
  validateResponse(xml: string, expected: ResponseExpectations): Promise<ValidationResult>;
  now(): Date;
}

export type SsoChallenges = Aggregate<SsoChallengeState, SsoChallengeCommand, SsoChallengeEvent>;

/** What the sign-in handlers share: their dependencies and the challenge aggregate. */
export interface SignInHandlerDeps extends SignInDeps {
  challenges: SsoChallenges;
}

/** An OIDC connection's relying-party settings, its client secret opened; null until issuer, client id and secret are all given. */
export function relyingPartyOf(
  deps: Pick<SignInDeps, 'keyRing' | 'publicUrl' | 'clockSkewMs'>,
  connection: PresentSsoConnection,
): RelyingPartySettings | null {
  const { oidc_issuer: issuer, oidc_client_id: clientId } = connection.settings;
  if (connection.settings.type !== 'oidc' || !issuer || !clientId || !connection.oidc_client_secret) return null;
  return {
    issuer,
    clientId,
    clientSecret: deps.keyRing.open(connection.oidc_client_secret),
    redirectUri: oidcRedirectUri(deps.publicUrl, connection.sp_id),
    clockToleranceSeconds: Math.round(deps.clockSkewMs / 1_000),
  };
}

export const ssoChallengeStream = (requestId: string) => streamName('ssoChallenge', requestId);
export const assertionStream = (spId: string, assertionId: string) =>
  streamName('samlAssertion', createHash('sha256').update(`${spId}\n${assertionId}`).digest('hex'));

/** A SAML sign-in's challenge; a refused response recording its failure must not land between a sign-in's check and its commit. */
export const ssoChallengeType: AggregateType<SsoChallengeState, SsoChallengeCommand, SsoChallengeEvent> = {
  decider: ssoChallengeDecider,
  stream: ssoChallengeStream,
  exclusive: true,
};

export const ssoChallenges = (runtime: ServiceRuntime): SsoChallenges =>
  new Aggregate(runtime.commandDeps<SsoChallengeState>(), ssoChallengeType);
