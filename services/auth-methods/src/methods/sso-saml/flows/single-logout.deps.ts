import type { SsoChallengeEvent } from '@sesame/contracts';
import type { AggregateView, KeyRing } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { IdentityClient } from '../../../core/identity/identity-client';
import type { SsoChallengeState } from '../domain/sso-challenge.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import type { SsoChallenges } from './sign-in.deps';

export interface SingleLogoutDeps {
  runtime: ServiceRuntime;
  identity: IdentityClient;
  keyRing: KeyRing;
  publicUrl: string;
  findConnection(spId: string): Promise<PresentSsoConnection | null>;
  now(): Date;
}

/** What the logout handlers share: their dependencies, the challenges (sessions) and their read model. */
export interface SingleLogoutHandlerDeps extends SingleLogoutDeps {
  challenges: SsoChallenges;
  signIns: AggregateView<SsoChallengeState, SsoChallengeEvent>;
}

export type Binding = 'redirect' | 'post';
export type SamlMessage = Record<string, string | undefined> & {
  SAMLRequest?: string;
  SAMLResponse?: string;
  RelayState?: string;
};

export const logoutIdOf = (requestId: string) => `_logout_${requestId}`;
export const requestIdOfLogout = (id: string) => /^_logout_([0-9a-f-]{36})$/.exec(id)?.[1] ?? null;
