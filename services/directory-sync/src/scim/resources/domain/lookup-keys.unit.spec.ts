import { matches, parseFilter } from '../../protocol/filter';
import type { ScimObject } from '../../protocol/filter';
import { lookupKeyOf, lookupKeysOf } from './lookup-keys';

const directory = 'ds-1';
const ada: ScimObject = {
  userName: 'Ada@Example.com',
  externalId: 'Ext-0042',
  displayName: 'Ada Lovelace',
  active: true,
  emails: [
    { value: 'ada@example.com', type: 'work', primary: true },
    { value: 'ada@home.example', type: 'home' },
  ],
};
const keysOfAda = lookupKeysOf({ directory_sync_id: directory, kind: 'User', resource: ada });
const keyOf = (filter: string, kind: 'User' | 'Group' = 'User') => lookupKeyOf(parseFilter(filter), directory, kind);

describe('SCIM lookup keys: the index narrows a filter to candidates that hold every match', () => {
  it('given a user, keys each indexed attribute lower-cased, every email, within its directory and kind', () => {
    expect(keysOfAda.sort()).toEqual(
      [
        'ds-1|User|displayname|ada lovelace',
        'ds-1|User|emails.value|ada@example.com',
        'ds-1|User|emails.value|ada@home.example',
        'ds-1|User|externalid|ext-0042',
        'ds-1|User|username|ada@example.com',
      ].sort(),
    );
  });

  it('given a group, keys its externalId and displayName only', () => {
    const keys = lookupKeysOf({
      directory_sync_id: directory,
      kind: 'Group',
      resource: { displayName: 'Admins', externalId: 'g-1', members: [] },
    });
    expect(keys.sort()).toEqual(['ds-1|Group|displayname|admins', 'ds-1|Group|externalid|g-1']);
  });

  it.each([
    'userName eq "ada@example.com"',
    'urn:ietf:params:scim:schemas:core:2.0:User:userName eq "ADA@example.com"',
    'externalId eq "Ext-0042"',
    'emails.value eq "ada@home.example"',
    'emails[type eq "work"].value eq "ada@example.com"',
    'displayName eq "ada lovelace"',
    'externalId eq "Ext-0042" and active eq true',
  ])("when a provider filters by %s, the key is one of the user's and the user matches", (filter) => {
    const key = keyOf(filter);
    expect(keysOfAda).toContain(key);
    expect(matches(ada, parseFilter(filter))).toBe(true);
  });

  it('when the value differs only in case on a case-exact attribute, the index still finds the candidate and the filter refuses it', () => {
    expect(keysOfAda).toContain(keyOf('externalId eq "EXT-0042"'));
    expect(matches(ada, parseFilter('externalId eq "EXT-0042"'))).toBe(false);
  });

  it.each([
    'externalId ne "x"',
    'externalId sw "Ext"',
    'externalId eq "a" or userName eq "b"',
    'not (userName eq "a")',
    'title eq "Engineer"',
    'emails[type eq "work"]',
    'active eq true',
  ])('when no indexed equality holds for every match (%s), there is no key: the directory is read whole', (filter) => {
    expect(keyOf(filter)).toBeNull();
  });

  it('a user attribute is no key for groups, and the kind and directory are part of the key', () => {
    expect(keyOf('userName eq "ada@example.com"', 'Group')).toBeNull();
    expect(keyOf('displayName eq "Admins"', 'Group')).toBe('ds-1|Group|displayname|admins');
    expect(lookupKeyOf(parseFilter('externalId eq "Ext-0042"'), 'ds-2', 'User')).not.toBe(keyOf('externalId eq "Ext-0042"'));
  });
});
