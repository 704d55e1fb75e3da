import { emailVerifiedOf, unregisteredSubjectId, unregisteredSubjectOf } from './unregistered-subject';

const connection = '0b8f7f0e-3c1d-4a5b-9c6d-7e8f90a1b2c3';

describe('a SAML subject let in without an account', () => {
  it('has a stable id per connection and NameID, never a version-4 user id', () => {
    const id = unregisteredSubjectId(connection, 'ada@acme.com');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(unregisteredSubjectId(connection, 'ada@acme.com')).toBe(id);
    expect(unregisteredSubjectId(connection, 'grace@acme.com')).not.toBe(id);
    expect(unregisteredSubjectId('1b8f7f0e-3c1d-4a5b-9c6d-7e8f90a1b2c3', 'ada@acme.com')).not.toBe(id);
  });

  it('has its email verified unless the IdP says otherwise', () => {
    expect(emailVerifiedOf({})).toBe(true);
    expect(emailVerifiedOf({ email_verified: ['true'] })).toBe(true);
    expect(emailVerifiedOf({ email_verified: ['false'] })).toBe(false);
    expect(emailVerifiedOf({ emailVerified: ['0'] })).toBe(false);
    expect(emailVerifiedOf({ email_verified: [' ', 'No'] })).toBe(false);
  });

  it('carries the mapped email and profile and the raw attributes', () => {
    const attributes = { email: ['ada@acme.com'], firstName: ['Ada'], team: ['R&D', 'Math'] };
    expect(
      unregisteredSubjectOf(
        connection,
        { name_id: 'opaque-7', attributes },
        { email: 'ada@acme.com', profile: { given_name: 'Ada' } },
      ),
    ).toEqual({
      id: unregisteredSubjectId(connection, 'opaque-7'),
      subject: {
        sso_connection_id: connection,
        name_id: 'opaque-7',
        email: 'ada@acme.com',
        email_verified: true,
        profile: { given_name: 'Ada' },
        attributes,
      },
    });
  });
});
