import type { AppError, OrganizationEvent, OrganizationSettings } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { lookupFailure, verifiedDomains } from './domain-verification';
import type { TxtLookup } from './domain-verification';
import { organizationDecider } from './organization.decider';

const settings: OrganizationSettings = {
  name: 'Acme Corp',
  allowed_email_domains: ['acme.com', 'acme.fr'],
  allowed_authn_connections: ['sso'],
  color: null,
  icon_logo_url: null,
  inline_logo_url: null,
  locale: null,
  timezone: null,
  tenant_id: null,
  environments: [{ name: 'production', status: 'up' }],
};
const id = '2f1f9f6e-6a5e-4b8a-9a53-2a0b5b0d5c11';
const createdIn = (environment: 'sandbox' | 'production'): OrganizationEvent => ({
  type: 'OrganizationCreated',
  data: {
    id,
    domain: 'acme-corp',
    environment,
    ...settings,
    environments: [{ name: environment, status: 'up' }],
    provisioners: [],
    at: '2026-01-01T00:00:00.000Z',
  },
});
const created = createdIn('production');
const token = 'q3V8mZr1cXo0Jt5hN2yWbA';
const at = '2026-01-02T00:00:00.000Z';
const started: OrganizationEvent = { type: 'DomainVerificationStarted', data: { email_domain: 'acme.com', token, at } };
const verifiedByDns: OrganizationEvent = { type: 'DomainVerified', data: { email_domain: 'acme.com', method: 'dns_txt', at } };
const records = (...values: string[]): TxtLookup => ({ outcome: 'records', records: values });
const verify = (lookup: TxtLookup, email_domain = 'acme.com') => ({
  type: 'VerifyDomain' as const,
  data: { email_domain, lookup, at },
});
const notAllowed: AppError = {
  kind: 'fields',
  fields: { email_domain: ["must be one of the organization's allowed_email_domains"] },
};
const spec = deciderSpecification(organizationDecider);

describe('domain verification', () => {
  describe('StartDomainVerification', () => {
    const start = { type: 'StartDomainVerification' as const, data: { email_domain: 'acme.com', token, at } };

    it('starts the verification of an allowed email domain with the token of its TXT record', () =>
      spec.given([created]).when(start).then([started]));

    it('keeps the token of a pending verification: the record already published stays right', () =>
      spec
        .given([created, started])
        .when({ ...start, data: { ...start.data, token: 'another-token' } })
        .then([]));

    it('changes nothing on a verified domain', () => spec.given([created, started, verifiedByDns]).when(start).then([]));

    it('refuses a domain the organization does not allow', () =>
      spec
        .given([created])
        .when({ ...start, data: { ...start.data, email_domain: 'globex.com' } })
        .thenFails(notAllowed));

    it('refuses a deleted organization as not found', () =>
      spec
        .given([
          created,
          { type: 'OrganizationDeleted', data: { organization_id: id, domain: 'acme-corp', environment: 'production', at } },
        ])
        .when(start)
        .thenFails({ kind: 'error', code: 'resource_not_found' }));
  });

  describe('VerifyDomain', () => {
    it('verifies the domain when a TXT record holds the verification value', () =>
      spec
        .given([created, started])
        .when(verify(records('v=spf1 -all', `sesame-verification=${token}`)))
        .then([verifiedByDns]));

    it('accepts the record with surrounding spaces', () =>
      spec
        .given([created, started])
        .when(verify(records(` sesame-verification=${token} `)))
        .then([verifiedByDns]));

    it('records a mismatch when the records hold another token', () =>
      spec
        .given([created, started])
        .when(verify(records('sesame-verification=someone-else', `sesame-verification=${token}x`)))
        .then([{ type: 'DomainVerificationFailed', data: { email_domain: 'acme.com', reason: 'record_mismatch', at } }]));

    it('records a missing record', () =>
      spec
        .given([created, started])
        .when(verify({ outcome: 'not_found' }))
        .then([{ type: 'DomainVerificationFailed', data: { email_domain: 'acme.com', reason: 'record_not_found', at } }]));

    it('records a failed lookup', () =>
      spec
        .given([created, started])
        .when(verify({ outcome: 'failed' }))
        .then([{ type: 'DomainVerificationFailed', data: { email_domain: 'acme.com', reason: 'lookup_failed', at } }]));

    it('refuses a domain whose verification was not started', () =>
      spec
        .given([created])
        .when(verify(records(`sesame-verification=${token}`)))
        .thenFails({ kind: 'error', code: 'domain_verification_not_started' }));

    it('refuses a domain the organization does not allow', () =>
      spec
        .given([created, started])
        .when(verify(records(`sesame-verification=${token}`), 'globex.com'))
        .thenFails(notAllowed));

    it('changes nothing on a verified domain', () =>
      spec
        .given([created, started, verifiedByDns])
        .when(verify({ outcome: 'not_found' }))
        .then([]));

    it('forgets the verification of a domain taken out of allowed_email_domains', () =>
      spec
        .given([
          created,
          started,
          verifiedByDns,
          { type: 'OrganizationUpdated', data: { changes: { allowed_email_domains: ['acme.fr'] }, at } },
          { type: 'OrganizationUpdated', data: { changes: { allowed_email_domains: ['acme.fr', 'acme.com'] }, at } },
        ])
        .when(verify(records(`sesame-verification=${token}`)))
        .thenFails({ kind: 'error', code: 'domain_verification_not_started' }));
  });

  describe('AssertDomain', () => {
    const assert = { type: 'AssertDomain' as const, data: { email_domain: 'acme.fr', at } };

    it('verifies a production organization’s domain on the vendor’s word, with no DNS record', () =>
      spec
        .given([created])
        .when(assert)
        .then([{ type: 'DomainVerified', data: { email_domain: 'acme.fr', method: 'vendor_assertion', at } }]));

    it('refuses a sandbox organization (a sandbox key)', () =>
      spec
        .given([createdIn('sandbox')])
        .when(assert)
        .thenFails({ kind: 'error', code: 'domain_assertion_requires_production' }));

    it('refuses a domain the organization does not allow', () =>
      spec
        .given([created])
        .when({ ...assert, data: { ...assert.data, email_domain: 'globex.com' } })
        .thenFails(notAllowed));

    it('changes nothing on a verified domain', () =>
      spec
        .given([created, started, verifiedByDns])
        .when({ ...assert, data: { ...assert.data, email_domain: 'acme.com' } })
        .then([]));
  });

  describe('state', () => {
    const fold = (events: OrganizationEvent[]) => events.reduce(organizationDecider.evolve, organizationDecider.initialState());

    it('holds verified domains only once verified, and none after the organization is updated without them', () => {
      const pending = fold([created, started]);
      const verified = fold([created, started, verifiedByDns]);
      const removed = fold([
        created,
        started,
        verifiedByDns,
        { type: 'OrganizationUpdated', data: { changes: { allowed_email_domains: ['acme.fr'] }, at } },
      ]);
      if (pending.status !== 'active' || verified.status !== 'active' || removed.status !== 'active')
        throw new Error('active expected');
      expect(verifiedDomains(pending)).toEqual([]);
      expect(verifiedDomains(verified)).toEqual(['acme.com']);
      expect(verifiedDomains(removed)).toEqual([]);
    });

    it('keeps the last failure of a pending verification', () => {
      const state = fold([
        created,
        started,
        { type: 'DomainVerificationFailed', data: { email_domain: 'acme.com', reason: 'record_mismatch', at } },
      ]);
      if (state.status !== 'active') throw new Error('active expected');
      expect(state.domain_verifications).toEqual([
        {
          email_domain: 'acme.com',
          token,
          status: 'pending',
          method: null,
          started_at: at,
          verified_at: null,
          last_failure: { reason: 'record_mismatch', at },
        },
      ]);
    });
  });

  describe('lookupFailure', () => {
    it('matches a record exactly (prefix, case and token)', () => {
      expect(lookupFailure(records(`sesame-verification=${token}`), token)).toBeNull();
      expect(lookupFailure(records(`SESAME-VERIFICATION=${token}`), token)).toBe('record_mismatch');
      expect(lookupFailure(records(token), token)).toBe('record_mismatch');
      expect(lookupFailure(records(`sesame-verification=${token.slice(0, -1)}`), token)).toBe('record_mismatch');
      expect(lookupFailure(records(), token)).toBe('record_not_found');
    });
  });
});
