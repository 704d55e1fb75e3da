import type { OrganizationEvent } from '@sesame/contracts';
import { fold } from '@sesame/platform';
import { organizationDecider } from './organization.decider';
import type { OrganizationState } from './organization.decider';
import { organizationStatus } from './organization-status';

const id = '2f1f9f6e-6a5e-4b8a-9a53-2a0b5b0d5c11';
const at = '2026-01-01T00:00:00.000Z';
const created = (provisioners?: ('auth-methods' | 'directory-sync' | 'webhooks')[]): OrganizationEvent => ({
  type: 'OrganizationCreated',
  data: {
    id,
    domain: 'acme',
    environment: 'sandbox',
    name: 'Acme',
    allowed_email_domains: [],
    allowed_authn_connections: ['sso'],
    color: null,
    icon_logo_url: null,
    inline_logo_url: null,
    locale: null,
    timezone: null,
    tenant_id: null,
    environments: [{ name: 'sandbox', status: 'up' }],
    ...(provisioners ? { provisioners } : {}),
    at,
  },
});
const confirmed = (service: 'auth-methods' | 'directory-sync' | 'webhooks'): OrganizationEvent => ({
  type: 'OrganizationProvisioningConfirmed',
  data: { organization_id: id, service, at },
});
const deleted: OrganizationEvent = { type: 'OrganizationDeleted', data: { domain: 'acme', environment: 'sandbox', at } };
const statusAfter = (events: OrganizationEvent[]) =>
  organizationStatus(fold(organizationDecider, events) as Exclude<OrganizationState, { status: 'empty' }>);
const all = ['auth-methods', 'directory-sync', 'webhooks'] as const;

describe('organization status', () => {
  it('is pending at 0% when no awaited service confirmed yet', () =>
    expect(statusAfter([created([...all])])).toEqual({
      state: 'pending',
      errors: [],
      progress_in_percentage: 0,
      estimated_time_to_complete_in_seconds: 1,
    }));

  it('tells the share of the awaited services that confirmed, rounded down', () => {
    expect(statusAfter([created([...all]), confirmed('webhooks')])).toMatchObject({
      state: 'pending',
      progress_in_percentage: 33,
    });
    expect(statusAfter([created([...all]), confirmed('webhooks'), confirmed('auth-methods')])).toMatchObject({
      state: 'pending',
      progress_in_percentage: 66,
    });
  });

  it('is terminated (provisioned) at 100% once every awaited service confirmed, in any order', () =>
    expect(
      statusAfter([created([...all]), confirmed('directory-sync'), confirmed('webhooks'), confirmed('auth-methods')]),
    ).toEqual({
      state: 'terminated',
      errors: [],
      progress_in_percentage: 100,
      estimated_time_to_complete_in_seconds: 0,
    }));

  it('is terminated (provisioned) for an organization created before the pending state (it awaited no service)', () =>
    expect(statusAfter([created()])).toMatchObject({ state: 'terminated', progress_in_percentage: 100 }));

  it('is terminated once deleted, pending or not', () =>
    expect(statusAfter([created([...all]), deleted])).toEqual({
      state: 'terminated',
      errors: [],
      progress_in_percentage: 100,
      estimated_time_to_complete_in_seconds: 0,
    }));
});
