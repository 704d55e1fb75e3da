import { matches, parseFilter, quoteBareValues, subAttributesInside } from './filter';
import type { ScimObject } from './filter';

const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const users: ScimObject[] = [
  {
    id: 'u1',
    externalId: 'Ext-1',
    userName: 'OMalley',
    active: true,
    name: { familyName: 'Employee', givenName: 'Darl' },
    emails: [
      { value: 'anna@example.com', type: 'work', primary: true },
      { value: 'anna@gmail.com', type: 'home' },
    ],
    meta: { created: '2026-01-01T10:00:00.000Z' },
    [enterprise]: { department: 'Sales', manager: { value: 'boss' } },
  },
  {
    id: 'u2',
    externalId: 'ext-2',
    userName: 'emp1',
    active: false,
    name: { familyName: 'Employee' },
    emails: [{ value: 'emp1@example.org', type: 'work' }],
    title: 'Engineer',
    meta: { created: '2026-02-01T10:00:00.000Z' },
  },
  { id: 'u3', userName: 'ryan', active: true, emails: [], meta: { created: '2026-03-01T10:00:00.000Z' } },
];

const ids = (filter: string) => users.filter((user) => matches(user, parseFilter(filter))).map((user) => user.id);

describe('SCIM filters (RFC 7644 section 3.4.2.2)', () => {
  it.each([
    ['userName eq "omalley"', ['u1']],
    ['USERNAME Eq "OMALLEY"', ['u1']],
    ['userName ne "omalley"', ['u2', 'u3']],
    ['userName co "mp"', ['u2']],
    ['userName sw "O"', ['u1']],
    ['userName ew "AN"', ['u3']],
    ['title pr', ['u2']],
    ['emails pr', ['u1', 'u2']],
    ['active eq true', ['u1', 'u3']],
    ['active eq false', ['u2']],
    ['externalId eq "ext-1"', []],
    ['externalId eq "Ext-1"', ['u1']],
    ['meta.created gt "2026-01-15T00:00:00Z"', ['u2', 'u3']],
    ['meta.created ge "2026-02-01T10:00:00.000Z"', ['u2', 'u3']],
    ['meta.created lt "2026-02-01T11:00:00+01:00"', ['u1']],
    ['meta.created lt "2026-02-01T11:00:01+01:00"', ['u1', 'u2']],
    ['meta.created le "2026-01-01T10:00:00Z"', ['u1']],
    ['userName gt "p"', ['u3']],
    ['name.familyName eq "Employee" and active eq true', ['u1']],
    ['userName eq "ryan" or title pr', ['u2', 'u3']],
    ['not (userName eq "ryan" or title pr)', ['u1']],
    ['not (userName eq "ryan" and active eq true)', ['u1', 'u2']],
    ['(active eq true or title pr) and (emails.value co "example.org" or userName eq "ryan")', ['u2', 'u3']],
    ['emails[type eq "work" and value co "example.com"]', ['u1']],
    ['emails[type eq "home" and value co "example.com"]', []],
    ['emails[type eq "work"].value co "example.org"', ['u2']],
    [`${enterprise}:department eq "sales"`, ['u1']],
    [`${enterprise}:manager.value eq "boss"`, ['u1']],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "emp1"', ['u2']],
    ['title eq null', ['u1', 'u3']],
    ['title ne null', ['u2']],
  ])('%s', (filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it("reads a bare word after an operator as a string (Microsoft's reference tests send `userName sw O`)", () => {
    expect(quoteBareValues('name.FamilyName eq Employee and (emails.Value co example.com or emails.Value co example.org)')).toBe(
      'name.FamilyName eq "Employee" and (emails.Value co "example.com" or emails.Value co "example.org")',
    );
    expect(quoteBareValues('meta.Created gt 2015-10-10T14:38:21.8617979-07:00')).toBe(
      'meta.Created gt "2015-10-10T14:38:21.8617979-07:00"',
    );
    expect(quoteBareValues('active eq true and x eq 12 and y eq null and z eq "a b"')).toBe(
      'active eq true and x eq 12 and y eq null and z eq "a b"',
    );
    expect(ids('name.FamilyName eq Employee and (emails.Value co example.com or emails.Value co example.org)')).toEqual([
      'u1',
      'u2',
    ]);
  });

  it.each(['userName eq', 'userName zz "a"', '(userName eq "a"', 'userName eq "a" and', ''])(
    "refuses '%s' with 400 invalidFilter",
    (filter) => {
      expect(() => parseFilter(filter)).toThrow(
        expect.objectContaining({ error: expect.objectContaining({ status: 400, scimType: 'invalidFilter' }) }),
      );
    },
  );
});

describe("a sub-attribute after a value filter (Entra ID's matching query)", () => {
  it.each([
    ['emails[type eq "work"].value eq "anna@example.com"', 'emails[(type eq "work") and value eq "anna@example.com"]'],
    ['emails[type eq "work"].display pr', 'emails[(type eq "work") and display pr]'],
    ['userName eq "a" and emails[type eq "work"].value co "]"', 'userName eq "a" and emails[(type eq "work") and value co "]"]'],
    ['emails[type eq "work"]', 'emails[type eq "work"]'],
    ['emails.value eq "a"', 'emails.value eq "a"'],
  ])('%s is %s', (filter, inside) => {
    expect(subAttributesInside(filter)).toBe(inside);
  });

  it('matches a user only when one entry holds both', () => {
    expect(ids('emails[type eq "work"].value eq "anna@example.com"')).toEqual(['u1']);
    expect(ids('emails[type eq "work"].value eq "anna@gmail.com"')).toEqual([]);
    expect(ids('emails[type eq "home"].value eq "anna@gmail.com"')).toEqual(['u1']);
  });
});
