import { belongsToDeletedOrganization } from './organization-deletion';

describe('what a deletion of an organization applies to', () => {
  const deletion = { organization_deleted_at: '2026-06-01T10:00:00.000Z' };

  it('applies to what was created before the deletion, or at the same instant', () => {
    expect(belongsToDeletedOrganization('2026-06-01T09:59:59.999Z', deletion)).toBe(true);
    expect(belongsToDeletedOrganization('2026-06-01T10:00:00.000Z', deletion)).toBe(true);
  });

  it('leaves alone what an organization of the same domain created after it', () => {
    expect(belongsToDeletedOrganization('2026-06-01T10:00:00.001Z', deletion)).toBe(false);
  });

  it('compares instants, not spellings of them', () => {
    expect(belongsToDeletedOrganization('2026-06-01T11:00:00+02:00', deletion)).toBe(true);
  });
});
