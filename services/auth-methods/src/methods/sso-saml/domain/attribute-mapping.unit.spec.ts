import { mapAttributes } from './attribute-mapping';

const claims = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

describe('attribute mapping', () => {
  it('reads Entra ID (Azure AD) and ADFS claim URIs', () => {
    const azure = {
      [`${claims}/emailaddress`]: ['Ada@Contoso.com'],
      [`${claims}/givenname`]: ['Ada'],
      [`${claims}/surname`]: ['Lovelace'],
      'http://schemas.microsoft.com/identity/claims/displayname': ['Ada L.'],
    };
    expect(mapAttributes('azure_ad', 'opaque-object-id', azure)).toEqual({
      email: 'ada@contoso.com',
      profile: { given_name: 'Ada', family_name: 'Lovelace', nickname: 'Ada L.' },
    });
    expect(mapAttributes('adfs', 'x', { [`${claims}/upn`]: ['ada@contoso.com'], [`${claims}/givenname`]: ['Ada'] })).toEqual({
      email: 'ada@contoso.com',
      profile: { given_name: 'Ada' },
    });
  });

  it('reads Okta, Google, OneLogin and Ping default attribute names', () => {
    expect(mapAttributes('okta', 'ada@acme.com', { firstName: ['Ada'], lastName: ['Lovelace'] }).profile).toEqual({
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    expect(mapAttributes('google', 'ada@acme.com', { first_name: ['Ada'], last_name: ['L'] }).profile).toEqual({
      given_name: 'Ada',
      family_name: 'L',
    });
    expect(mapAttributes('onelogin', 'id-1', { 'User.email': ['ada@acme.com'], 'User.FirstName': ['Ada'] })).toEqual({
      email: 'ada@acme.com',
      profile: { given_name: 'Ada' },
    });
    expect(mapAttributes('ping_one', 'id-1', { mail: ['ada@acme.com'], givenName: ['Ada'], sn: ['Lovelace'] })).toEqual({
      email: 'ada@acme.com',
      profile: { given_name: 'Ada', family_name: 'Lovelace' },
    });
  });

  it('falls back to the NameID when it is an email, and has no email otherwise', () => {
    expect(mapAttributes('custom_saml', 'Ada@Acme.com', {}).email).toBe('ada@acme.com');
    expect(mapAttributes('custom_saml', 'opaque', { email: ['not an email'] }).email).toBeNull();
  });
});
