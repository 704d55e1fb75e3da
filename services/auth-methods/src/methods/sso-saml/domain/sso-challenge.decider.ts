import { fieldError, refusedField } from '@sesame/contracts';
import type { Environment, SamlSubjectData, SsoChallengeEvent, SsoSignInTenant } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

type Issued = Extract<SsoChallengeEvent, { type: 'SsoChallengeIssued' }>['data'];

/** A SAML sign-in: pending until a valid assertion completes it once, or a refusal ends it. */
export type SsoChallengeState =
  | { status: 'absent' }
  | ({ status: 'pending' } & Issued)
  | ({
      status: 'completed';
      subject: SamlSubjectData;
      assertion_id: string;
      completed_at: string;
      attributes: Record<string, string[]> | null;
      /** Where an SP-initiated logout returns, once requested. */
      logout_redirect_uri: string | null;
      ended_at: string | null;
    } & Issued)
  | ({ status: 'failed'; reason: string } & Issued);

export type SsoChallengeCommand =
  | { type: 'IssueSsoChallenge'; data: Issued }
  | {
      type: 'CompleteSsoChallenge';
      data: { assertion_id: string; subject: SamlSubjectData; at: string; attributes?: Record<string, string[]> };
    }
  | { type: 'FailSsoChallenge'; data: { reason: string; at: string } }
  | { type: 'RequestSsoLogout'; data: { redirect_uri: string; at: string } }
  | { type: 'EndSsoSession'; data: { initiated_by: 'sp' | 'idp'; at: string } }
  /** An IdP-initiated sign-in: issued and completed at once. */
  | { type: 'RecordIdpInitiatedSignIn'; data: { issued: Issued; assertion_id: string; subject: SamlSubjectData } };

/** Why a challenge cannot take an assertion: `unknown_in_response_to` or `challenge_used` or `challenge_expired`. */
export const challengeProblem = (
  state: SsoChallengeState,
  at: string,
): 'unknown_in_response_to' | 'challenge_used' | 'challenge_expired' | null => {
  if (state.status === 'absent') return 'unknown_in_response_to';
  if (state.status !== 'pending') return 'challenge_used';
  if (Date.parse(at) >= Date.parse(state.expired_at)) return 'challenge_expired';
  return null;
};

export const challengeEnvironment = (state: SsoChallengeState): Environment | null =>
  state.status === 'absent' ? null : state.environment;

/** Where the challenge was issued: copied onto its outcome, for webhooks. */
const tenantOf = (issued: Issued): SsoSignInTenant => ({
  organization_domain: issued.organization_domain,
  environment: issued.environment,
  sso_connection_id: issued.sso_connection_id,
  ...(issued.test ? { test: true } : {}),
});

export const ssoChallengeDecider: Decider<SsoChallengeState, SsoChallengeCommand, SsoChallengeEvent> = {
  initialState: () => ({ status: 'absent' }),
  tenant: (state) =>
    state.status !== 'absent' && state.organization_id
      ? { organization_id: state.organization_id, environment: state.environment }
      : undefined,
  decide(command, state) {
    switch (command.type) {
      case 'IssueSsoChallenge':
        if (state.status !== 'absent') fail(refusedField('request_id', 'taken'));
        return [{ type: 'SsoChallengeIssued', data: command.data }];
      case 'CompleteSsoChallenge': {
        const problem = challengeProblem(state, command.data.at);
        if (problem || state.status !== 'pending') return fail(fieldError('SAMLResponse', problem ?? 'challenge_used'));
        return [{ type: 'SsoChallengeCompleted', data: { ...tenantOf(state), request_id: state.request_id, ...command.data } }];
      }
      case 'RecordIdpInitiatedSignIn': {
        if (state.status !== 'absent') fail(refusedField('request_id', 'taken'));
        const { issued, assertion_id, subject } = command.data;
        return [
          { type: 'SsoChallengeIssued', data: issued },
          {
            type: 'SsoChallengeCompleted',
            data: { ...tenantOf(issued), request_id: issued.request_id, assertion_id, subject, at: issued.at },
          },
        ];
      }
      case 'RequestSsoLogout':
        if (state.status !== 'completed' || state.ended_at) return fail(fieldError('user_email', 'has no open SSO session'));
        return [{ type: 'SsoLogoutRequested', data: { request_id: state.request_id, ...command.data } }];
      case 'EndSsoSession':
        if (state.status !== 'completed' || state.ended_at) return [];
        return [{ type: 'SsoSessionEnded', data: { request_id: state.request_id, ...command.data } }];
      case 'FailSsoChallenge':
        if (state.status !== 'pending') return [];
        return [{ type: 'SsoChallengeFailed', data: { ...tenantOf(state), request_id: state.request_id, ...command.data } }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'SsoChallengeIssued':
        return { status: 'pending', ...event.data };
      case 'SsoChallengeCompleted':
        if (state.status !== 'pending') return state;
        return {
          ...state,
          status: 'completed',
          subject: event.data.subject,
          assertion_id: event.data.assertion_id,
          completed_at: event.data.at,
          attributes: event.data.attributes ?? null,
          logout_redirect_uri: null,
          ended_at: null,
        };
      case 'SsoLogoutRequested':
        return state.status === 'completed' ? { ...state, logout_redirect_uri: event.data.redirect_uri } : state;
      case 'SsoSessionEnded':
        return state.status === 'completed' ? { ...state, ended_at: event.data.at } : state;
      case 'SsoChallengeFailed':
        if (state.status !== 'pending') return state;
        return { ...state, status: 'failed', reason: event.data.reason };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
