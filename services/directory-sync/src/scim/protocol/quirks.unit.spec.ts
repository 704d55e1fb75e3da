import { resolvePath } from './attribute-paths';
import { addMissingEntries, normalizePatch, normalizeResource } from './quirks';
import { applyPatchOp, resourceNames, scimSchemaUrns } from './scim-schemas';

const enterprise = scimSchemaUrns.EnterpriseUser;
const names = resourceNames.User;
const patchOf = (...Operations: unknown[]) => ({ schemas: [scimSchemaUrns.PatchOp], Operations });

describe('PATCH paths whatever their case (RFC 7643 section 2.1, RFC 7644 section 3.5.2)', () => {
  it.each([
    ['Name.GivenName', 'name.givenName'],
    ['USERNAME', 'userName'],
    ['externalid', 'externalId'],
    [`${scimSchemaUrns.User}:name.givenName`, 'name.givenName'],
    [`${scimSchemaUrns.User.toUpperCase()}:Title`, 'title'],
    [`${enterprise.toLowerCase()}:Department`, `${enterprise}:department`],
    [`${enterprise}:Manager.Value`, `${enterprise}:manager.value`],
    [enterprise.toLowerCase(), enterprise],
    ['emails[Type eq "Work"].Value', 'emails[type eq "Work"].value'],
    ['addresses[type eq "work" and Primary eq true].formatted', 'addresses[type eq "work" and primary eq true].formatted'],
    [' members[value eq "Value"] ', 'members[value eq "Value"]'],
  ])('%s is %s', (path, canonical) => {
    expect(resolvePath(path, path.trim().startsWith('members') ? resourceNames.Group : names).path).toBe(canonical);
  });

  it('gives back a path naming no known attribute as it came, for the PATCH to refuse', () => {
    expect(resolvePath('nope.x', names)).toEqual({ path: 'nope.x', attribute: null, valueFilter: null, sub: null });
    expect(resolvePath('urn:example:custom:2.0:User:tag', names).path).toBe('urn:example:custom:2.0:User:tag');
  });
});

describe('what Entra ID sends, in the form the schemas expect', () => {
  it('reads a bare manager id as the manager value, in a resource and in a PATCH with or without path', () => {
    expect(normalizeResource({ userName: 'ada', [enterprise]: { Manager: 'm1', department: 'Eng' } }, names)).toEqual({
      userName: 'ada',
      [enterprise]: { Manager: { value: 'm1' }, department: 'Eng' },
    });
    expect(
      normalizePatch(
        patchOf(
          { op: 'Add', path: `${enterprise}:manager`, value: 'm1' },
          { op: 'replace', value: { [`${enterprise}:Manager`]: 'm2', 'name.GivenName': 'Ada', Active: 'False' } },
          { op: 'replace', value: { [enterprise]: { manager: 'm3' } } },
        ),
        scimSchemaUrns.PatchOp,
        names,
      ).Operations,
    ).toEqual([
      { op: 'Add', path: `${enterprise}:manager`, value: { value: 'm1' } },
      { op: 'replace', value: { [`${enterprise}:manager`]: { value: 'm2' }, 'name.givenName': 'Ada', active: false } },
      { op: 'replace', value: { [enterprise]: { manager: { value: 'm3' } } } },
    ]);
  });

  it('leaves a manager given as an object, and a manager sub-attribute, as they are', () => {
    const operations = [
      { op: 'add', path: `${enterprise}:manager`, value: { value: 'm1', displayName: 'Megan' } },
      { op: 'replace', path: `${enterprise}:manager.displayName`, value: 'Megan' },
    ];
    expect(normalizePatch(patchOf(...operations), scimSchemaUrns.PatchOp, names).Operations).toEqual(operations);
  });
});

describe('an add or replace of an entry the resource does not have yet (Entra ID)', () => {
  const user = { userName: 'ada', phoneNumbers: [{ type: 'work', value: '+1' }] };

  it('adds the entry the eq filter describes, once per request', () => {
    const message = patchOf(
      { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+2' },
      { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].display', value: 'Mobile' },
      { op: 'Replace', path: 'addresses[type eq "work" and primary eq true].formatted', value: 'Building 4' },
    );
    expect(addMissingEntries(user, message, names).Operations).toEqual([
      { op: 'add', path: 'phoneNumbers', value: [{ type: 'mobile', value: '+2' }] },
      { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].display', value: 'Mobile' },
      { op: 'add', path: 'addresses', value: [{ type: 'work', primary: true, formatted: 'Building 4' }] },
    ]);
  });

  it('leaves operations on entries that exist, removals, other filters and paths without filter as they are', () => {
    const operations = [
      { op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '+3' },
      { op: 'remove', path: 'phoneNumbers[type eq "fax"].value' },
      { op: 'add', path: 'phoneNumbers[type sw "mob"].value', value: '+4' },
      { op: 'add', path: 'phoneNumbers[type eq "fax"]', value: { value: '+5' } },
      { op: 'replace', path: 'name.givenName', value: 'Ada' },
    ];
    expect(addMissingEntries(user, patchOf(...operations), names).Operations).toEqual(operations);
  });

  it('refuses a value filter it cannot read with 400 invalidFilter', () => {
    expect(() =>
      addMissingEntries(user, patchOf({ op: 'add', path: 'phoneNumbers[type eq].value', value: '+2' }), names),
    ).toThrow(expect.objectContaining({ error: expect.objectContaining({ status: 400, scimType: 'invalidFilter' }) }));
  });

  it('lands in the patched user next to the entries it had', async () => {
    const patched = await applyPatchOp(
      'User',
      { schemas: [scimSchemaUrns.User], id: 'u1', ...user },
      normalizePatch(
        patchOf(
          { op: 'Add', path: 'PhoneNumbers[Type eq "mobile"].Value', value: '+2' },
          { op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '+3' },
        ),
        scimSchemaUrns.PatchOp,
        names,
      ),
    );
    expect(patched.phoneNumbers).toEqual([
      { type: 'work', value: '+3' },
      { type: 'mobile', value: '+2' },
    ]);
  });
});
