import { nameBasedUuid } from './name-based-uuid';

describe('nameBasedUuid', () => {
  it('is a version 8 UUID, the same for the same parts and distinct otherwise', () => {
    const id = nameBasedUuid('sesame-sso-subject', '0b7d4a52-8c3e-4f1a-9d6b-2e5f8a1c3d4e', 'ada@acme.com');
    expect(id).toBe('7bac4323-6b43-8594-b76c-befe1036e212');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameBasedUuid('sesame-sso-subject', '0b7d4a52-8c3e-4f1a-9d6b-2e5f8a1c3d4e', 'grace@acme.com')).not.toBe(id);
    expect(nameBasedUuid('sesame-password-connection', '0b7d4a52-8c3e-4f1a-9d6b-2e5f8a1c3d4e', 'ada@acme.com')).not.toBe(id);
  });
});
