import type { OrganizationDeleted } from './organization-deletion';
import { organizationDeletionOf, ownedByDeletedOrganization } from './organization-deletion';

const deleted = (data: Partial<OrganizationDeleted['data']>, tenant?: OrganizationDeleted['metadata']['tenant']) =>
  ({
    id: 'e1',
    type: 'OrganizationDeleted',
    data: { domain: 'acme', environment: 'sandbox', at: '2026-06-01T10:00:00.000Z', ...data },
    stream: 'organization-sandbox:acme',
    revision: 3,
    metadata: { correlationId: 'c', occurredAt: '2026-06-01T10:00:00.000Z', ...(tenant ? { tenant } : {}) },
  }) as OrganizationDeleted;

describe('what a deletion of an organization applies to', () => {
  it('names the deleted organization by its id, from the envelope or the data', () => {
    const at = '2026-06-01T10:00:01.000Z';
    const expected = {
      reason: 'organization_deleted',
      organization_id: 'org-1',
      at,
    };
    expect(organizationDeletionOf(deleted({}, { organization_id: 'org-1', environment: 'sandbox' }), at)).toEqual(expected);
    expect(organizationDeletionOf(deleted({ organization_id: 'org-1' }), at)).toEqual(expected);
    // Recorded before deletions named the organization.
    expect(organizationDeletionOf(deleted({}), at)).toEqual({ ...expected, organization_id: null });
  });

  it('applies to the deleted organization’s own, never to another one’s (a re-created one of the same domain), whatever the instants', () => {
    expect(ownedByDeletedOrganization('org-1', { organization_id: 'org-1' })).toBe(true);
    expect(ownedByDeletedOrganization('org-2', { organization_id: 'org-1' })).toBe(false);
    expect(ownedByDeletedOrganization('org-2', { organization_id: null })).toBe(false);
  });

  it('applies to what was recorded before it named its organization (its domain’s)', () => {
    expect(ownedByDeletedOrganization(null, { organization_id: 'org-1' })).toBe(true);
    expect(ownedByDeletedOrganization(undefined, { organization_id: null })).toBe(true);
  });
});
