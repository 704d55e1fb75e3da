import type { RelayCodeEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { relayCodeDecider, relaySessionEnd } from './relay-code.decider';

const spec = deciderSpecification(relayCodeDecider);
const issuedData = {
  code_hash: 'h',
  relay_id: 'r1',
  environment: 'sandbox' as const,
  from_user_id: 'u1',
  from_organization_domain: 'acme',
  partner_domain: 'partner',
  partner_user_id: 'p1',
  partner_redirect_uri: 'https://partner.example.net/cb',
  session_duration_minutes: 60,
  expires_at: '2026-01-01T00:02:00.000Z',
  at: '2026-01-01T00:00:00.000Z',
};
const issued: RelayCodeEvent = { type: 'RelayCodeIssued', data: issuedData };
const partnerKey = { client_id: 'c', environment: 'sandbox' as const };
const redeem = (at: string, client = partnerKey) => ({ type: 'RedeemRelayCode' as const, data: { code_hash: 'h', client, at } });
const invalidGrant = {
  kind: 'oauth',
  code: 'invalid_grant',
  description: 'The relay code is unknown, expired or already used',
} as const;

describe('relay code decider', () => {
  it("names the partner organization as the tenant of the code's events, when the code names it (not older codes)", () => {
    const stateOf = (data: typeof issuedData & { organization_id?: string }) =>
      relayCodeDecider.evolve(relayCodeDecider.initialState(), { type: 'RelayCodeIssued', data });
    expect(relayCodeDecider.tenant?.(stateOf({ ...issuedData, organization_id: 'org-p' }))).toEqual({
      organization_id: 'org-p',
      environment: 'sandbox',
    });
    expect(relayCodeDecider.tenant?.(stateOf(issuedData))).toBeUndefined();
    expect(relayCodeDecider.tenant?.(relayCodeDecider.initialState())).toBeUndefined();
  });

  it('redeems a code once, before it expires', () => {
    const redeemed: RelayCodeEvent = {
      type: 'RelayCodeRedeemed',
      data: { code_hash: 'h', client_id: 'c', at: '2026-01-01T00:01:00.000Z' },
    };
    spec.given([issued]).when(redeem('2026-01-01T00:01:00.000Z')).then([redeemed]);
    spec.given([issued, redeemed]).when(redeem('2026-01-01T00:01:30.000Z')).thenFails(invalidGrant);
  });

  it('refuses an expired or unknown code', () => {
    spec.given([issued]).when(redeem('2026-01-01T00:02:00.001Z')).thenFails(invalidGrant);
    spec.given([]).when(redeem('2026-01-01T00:01:00.000Z')).thenFails(invalidGrant);
  });

  it('issues a code once', () => {
    spec.given([]).when({ type: 'IssueRelayCode', data: issuedData }).then([issued]);
    spec.given([issued]).when({ type: 'IssueRelayCode', data: issuedData }).thenNothingHappens();
  });

  it('is exchanged only by an API key of its environment; another environment gets the answer of an unknown code', () => {
    spec
      .given([issued])
      .when(redeem('2026-01-01T00:01:00.000Z', { client_id: 'c', environment: 'production' as never }))
      .thenFails(invalidGrant);
  });

  it('opens a session of session_duration_minutes', () => {
    expect(relaySessionEnd(issuedData, new Date('2026-01-01T00:01:00.000Z'))).toBe('2026-01-01T01:01:00.000Z');
  });
});
