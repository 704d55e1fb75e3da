import { deciderSpecification } from '@sesame/platform/testing';
import type { SsoChallengeEvent } from '@sesame/contracts';
import { challengeProblem, ssoChallengeDecider } from './sso-challenge.decider';

const spec = deciderSpecification(ssoChallengeDecider);
const issued = {
  request_id: 'r1',
  sp_id: 'acme_sandbox',
  sso_connection_id: 'c1',
  organization_domain: 'acme',
  environment: 'sandbox' as const,
  redirect_uri: 'https://app.example.com/cb',
  client_id: 'key',
  expired_at: '2026-06-01T00:10:00.000Z',
  at: '2026-06-01T00:00:00.000Z',
};
const subject = { name_id: 'ada@acme.com', name_id_format: null, session_index: '_s1', email: 'ada@acme.com', user_id: 'u1' };
const issuedEvent: SsoChallengeEvent = { type: 'SsoChallengeIssued', data: issued };
/** What an outcome copies from its challenge, for webhooks. */
const where = { organization_domain: 'acme', environment: 'sandbox' as const, sso_connection_id: 'c1' };
const completed: SsoChallengeEvent = {
  type: 'SsoChallengeCompleted',
  data: { ...where, request_id: 'r1', assertion_id: '_a1', subject, at: '2026-06-01T00:01:00.000Z' },
};
const complete = (at: string) => ({ type: 'CompleteSsoChallenge' as const, data: { assertion_id: '_a1', subject, at } });

describe('SSO challenge decider', () => {
  it('completes a pending challenge once, before it expires', () => {
    spec.given([issuedEvent]).when(complete('2026-06-01T00:01:00.000Z')).then([completed]);
    spec
      .given([issuedEvent, completed])
      .when(complete('2026-06-01T00:02:00.000Z'))
      .thenFails({ kind: 'fields', fields: { SAMLResponse: ['challenge_used'] } });
    spec
      .given([issuedEvent])
      .when(complete('2026-06-01T00:10:00.000Z'))
      .thenFails({ kind: 'fields', fields: { SAMLResponse: ['challenge_expired'] } });
    spec
      .given([])
      .when(complete(issued.at))
      .thenFails({ kind: 'fields', fields: { SAMLResponse: ['unknown_in_response_to'] } });
  });

  it('records an IdP-initiated sign-in as issued and completed at once', () => {
    spec
      .given([])
      .when({ type: 'RecordIdpInitiatedSignIn', data: { issued, assertion_id: '_a1', subject } })
      .then([
        issuedEvent,
        { type: 'SsoChallengeCompleted', data: { ...where, request_id: 'r1', assertion_id: '_a1', subject, at: issued.at } },
      ]);
  });

  it('ends a session once: logout requested, then ended; nothing to end on a pending challenge', () => {
    const requested: SsoChallengeEvent = {
      type: 'SsoLogoutRequested',
      data: { request_id: 'r1', redirect_uri: 'https://app.example.com/bye', at: '2026-06-01T01:00:00.000Z' },
    };
    spec
      .given([issuedEvent, completed])
      .when({ type: 'RequestSsoLogout', data: { redirect_uri: 'https://app.example.com/bye', at: '2026-06-01T01:00:00.000Z' } })
      .then([requested]);
    const ended: SsoChallengeEvent = {
      type: 'SsoSessionEnded',
      data: { request_id: 'r1', initiated_by: 'idp', at: '2026-06-01T01:00:00.000Z' },
    };
    spec
      .given([issuedEvent, completed])
      .when({ type: 'EndSsoSession', data: { initiated_by: 'idp', at: '2026-06-01T01:00:00.000Z' } })
      .then([ended]);
    spec
      .given([issuedEvent, completed, ended])
      .when({ type: 'EndSsoSession', data: { initiated_by: 'sp', at: '2026-06-01T02:00:00.000Z' } })
      .thenNothingHappens();
    spec
      .given([issuedEvent, completed, ended])
      .when({ type: 'RequestSsoLogout', data: { redirect_uri: 'https://app.example.com/bye', at: '2026-06-01T02:00:00.000Z' } })
      .thenFails({ kind: 'fields', fields: { user_email: ['has no open SSO session'] } });
    spec
      .given([issuedEvent])
      .when({ type: 'EndSsoSession', data: { initiated_by: 'idp', at: '2026-06-01T01:00:00.000Z' } })
      .thenNothingHappens();
  });

  it('records a refusal of a pending challenge once, with where it happened and whether it was a test', () => {
    const fail = { type: 'FailSsoChallenge' as const, data: { reason: 'signature_invalid', at: '2026-06-01T00:01:00.000Z' } };
    const failed: SsoChallengeEvent = { type: 'SsoChallengeFailed', data: { ...where, request_id: 'r1', ...fail.data } };
    spec.given([issuedEvent]).when(fail).then([failed]);
    spec.given([issuedEvent, failed]).when(fail).thenNothingHappens();
    spec.given([issuedEvent, completed]).when(fail).thenNothingHappens();
    spec
      .given([{ type: 'SsoChallengeIssued', data: { ...issued, test: true } }])
      .when(fail)
      .then([{ type: 'SsoChallengeFailed', data: { ...where, test: true, request_id: 'r1', ...fail.data } }]);
  });

  it('says why a challenge cannot take an assertion', () => {
    expect(challengeProblem({ status: 'absent' }, issued.at)).toBe('unknown_in_response_to');
    expect(challengeProblem({ status: 'pending', ...issued }, '2026-06-01T00:05:00.000Z')).toBeNull();
  });
});
