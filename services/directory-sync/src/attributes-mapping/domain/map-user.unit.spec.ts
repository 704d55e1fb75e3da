import type { AttributeMapping } from '@sesame/contracts';
import { defaultAttributesMapping } from './default-mapping';
import { mapScimUser, readScimAttribute } from './map-user';

const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const resource = {
  userName: 'ada',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [
    { value: 'ada@home.example', type: 'home' },
    { value: 'ada@acme.com', type: 'work', primary: true },
  ],
  phoneNumbers: [{ value: '312-320-0932', type: 'work' }],
  preferredLanguage: 'fr-FR',
  addresses: [{ locality: 'London', country: 'GB', primary: true }],
  [enterprise]: { department: 'Engines', manager: { value: 'babbage' } },
};

describe('reading SCIM attributes for the mapping', () => {
  it.each([
    ['name.givenName', 'Ada'],
    ['NAME.GIVENNAME', 'Ada'],
    ['emails.value', 'ada@acme.com'],
    ['emails[type eq "home"].value', 'ada@home.example'],
    ['emails[type eq "other"].value', undefined],
    ['phoneNumbers.value', '312-320-0932'],
    [`${enterprise}:department`, 'Engines'],
    [`${enterprise}:manager.value`, 'babbage'],
    ['title', undefined],
    [`${enterprise}:costCenter`, undefined],
    [`${enterprise}:manager`, 'babbage'],
    ['emails', 'ada@acme.com'],
  ])('%s → %s', (path, value) => {
    expect(readScimAttribute(resource, path)).toEqual(value);
  });

  it('reads the work entry of a multi-valued attribute that has no primary one, else the first (Entra ID)', () => {
    const entra = {
      phoneNumbers: [
        { type: 'fax', value: '+14255550111' },
        { type: 'work', value: '+14255550109' },
      ],
      addresses: [{ type: 'other', formatted: 'Building 4' }],
    };
    expect(readScimAttribute(entra, 'phoneNumbers.value')).toBe('+14255550109');
    expect(readScimAttribute(entra, 'addresses.formatted')).toBe('Building 4');
    expect(readScimAttribute(resource, 'emails.value')).toBe('ada@acme.com');
  });

  it('reads a complex value without a value sub-attribute as it is', () => {
    expect(readScimAttribute(resource, 'name')).toEqual({ givenName: 'Ada', familyName: 'Lovelace' });
  });
});

describe('applying the attribute mapping', () => {
  it('maps the default attributes, leaving out an optional value that is invalid (a phone number not in E.164)', () => {
    expect(mapScimUser(resource, defaultAttributesMapping)).toEqual({
      ok: true,
      user: {
        email: 'ada@acme.com',
        profile: { given_name: 'Ada', family_name: 'Lovelace', preferred_username: 'ada', locale: 'fr-FR' },
        address: { locality: 'London', country: 'GB' },
        metadata: {},
      },
    });
  });

  it('reads the entry a value filter selects', () => {
    const mapping: AttributeMapping[] = [{ name: 'emails[type eq "home"].value', mapped_name: 'email', required: true }];
    expect(mapScimUser(resource, mapping)).toEqual({
      ok: true,
      user: { email: 'ada@home.example', profile: {}, address: {}, metadata: {} },
    });
  });

  it('keeps custom attributes in metadata', () => {
    const mapping: AttributeMapping[] = [
      { name: `${enterprise}:department`, mapped_name: 'metadata.department', required: true },
    ];
    expect(mapScimUser(resource, mapping)).toEqual({
      ok: true,
      user: { profile: {}, address: {}, metadata: { department: 'Engines' } },
    });
  });

  it('refuses a resource missing a required attribute or holding an invalid one', () => {
    const mapping: AttributeMapping[] = [
      { name: 'title', mapped_name: 'profile.nickname', required: true },
      { name: 'phoneNumbers.value', mapped_name: 'phone_number', required: true },
      { name: 'userName', mapped_name: 'email', required: true },
    ];
    const result = mapScimUser(resource, mapping);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.problems).toEqual([
      'title is required (mapped to profile.nickname)',
      expect.stringMatching(/^phoneNumbers\.value .+ \(mapped to phone_number\)$/),
      expect.stringMatching(/^userName .+ \(mapped to email\)$/),
    ]);
  });
});
