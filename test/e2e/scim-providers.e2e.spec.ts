import { randomUUID } from 'node:crypto';
import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';

/*
 * The requests Entra ID, Okta and OneLogin send with their default attribute mappings, exactly as
 * their vendors publish them:
 * - Entra ID: "Tutorial: Develop and plan provisioning for a SCIM endpoint" (request samples, the
 *   default user attribute table) and "Known issues and resolutions with SCIM 2.0 protocol
 *   compliance" (the bodies sent with and without the `aadOptscim062020` flag), learn.microsoft.com
 *   /entra/identity/app-provisioning; the enterprise `manager` set by a PATCH whose value is the
 *   manager's bare id (MicrosoftDocs/azure-docs issues 69234 and 73842).
 * - Okta: "SCIM 2.0 Protocol Reference" (developer.okta.com/docs/reference/scim/scim-20).
 * - OneLogin: the "SCIM Provisioner with SAML (SCIM v2 Enterprise)" JSON template.
 */
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const errorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';
const adGroupSchema = 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group';

/** The default mapping, and the enterprise extension and job title into metadata, as the directory-sync guide shows. */
const mapping = [
  { name: 'emails[type eq "work"].value', mapped_name: 'email', required: false },
  { name: 'phoneNumbers.value', mapped_name: 'phone_number', required: false },
  { name: 'name.givenName', mapped_name: 'profile.given_name', required: false },
  { name: 'name.familyName', mapped_name: 'profile.family_name', required: false },
  { name: 'nickName', mapped_name: 'profile.nickname', required: false },
  { name: 'userName', mapped_name: 'profile.preferred_username', required: false },
  { name: 'preferredLanguage', mapped_name: 'profile.locale', required: false },
  { name: 'timezone', mapped_name: 'profile.zoneinfo', required: false },
  { name: 'addresses.formatted', mapped_name: 'address.formatted', required: false },
  { name: 'addresses.streetAddress', mapped_name: 'address.street_address', required: false },
  { name: 'addresses.locality', mapped_name: 'address.locality', required: false },
  { name: 'addresses.region', mapped_name: 'address.region', required: false },
  { name: 'addresses.postalCode', mapped_name: 'address.postal_code', required: false },
  { name: 'addresses.country', mapped_name: 'address.country', required: false },
  { name: 'title', mapped_name: 'metadata.title', required: false },
  { name: `${enterprise}:employeeNumber`, mapped_name: 'metadata.employee_number', required: false },
  { name: `${enterprise}:department`, mapped_name: 'metadata.department', required: false },
  { name: `${enterprise}:manager`, mapped_name: 'metadata.manager_id', required: false },
];

describe('SCIM requests of Entra ID, Okta and OneLogin with their default mappings (all processes, real NATS)', () => {
  let system: System;
  const suffix = randomUUID().slice(0, 8);
  beforeAll(async () => {
    system = await System.start();
    expect((await system.request('PUT', '/api/v2/attributes-mapping', { body: { attributes: mapping } })).status).toBe(200);
  });
  afterAll(async () => {
    await system?.stop();
  });

  /** A directory sync of a new organization: its SCIM client (base path as the provider is given it) and its Sesame users. */
  async function directory(provider: string, query = '') {
    const domain = await createOrganization(system, `Scim ${provider} ${query} ${suffix}`);
    const { body } = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, {
      body: { provider_type: provider },
    });
    const base = new URL(body.scim_base_url).pathname;
    const token = body.auth_secret_token.value as string;
    const scim = (method: string, path: string, payload?: unknown) => {
      const [route, search] = path.split('?');
      const params = [query, search].filter(Boolean).join('&');
      return system.request(method, `${base}${route}${params ? `?${params}` : ''}`, {
        token,
        headers: { 'content-type': 'application/scim+json' },
        ...(payload === undefined ? {} : { body: payload }),
      });
    };
    const sesame = (email: string) => system.request('GET', `/api/v2/org/${domain}/users/${encodeURIComponent(email)}`);
    const sesameUser = async (email: string) => (await sesame(email)).body;
    return { scim, sesame, sesameUser };
  }
  const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;

  describe('Entra ID (non-gallery application, default attribute mappings)', () => {
    let entra: Awaited<ReturnType<typeof directory>>;
    let flagged: Awaited<ReturnType<typeof directory>>;
    let adele: string;
    let manager: string;
    const email = `AdeleV@entra-${suffix}.example`;
    beforeAll(async () => {
      entra = await directory('azure_ad');
      flagged = await directory('azure_ad', 'aadOptscim062020');
    });

    it('answers Test Connection and the matching queries (userName, externalId, group displayName) with empty lists', async () => {
      for (const client of [entra, flagged]) {
        for (const path of [
          `/Users?${filter(`userName eq "${randomUUID()}"`)}`,
          `/Users?${filter('externalId eq "AdeleV"')}`,
          `/Groups?excludedAttributes=members&${filter('displayName eq "Retail"')}`,
        ])
          expect(await client.scim('GET', path)).toMatchObject({ status: 200, body: { totalResults: 0, Resources: [] } });
      }
    });

    it('creates users as Entra sends them (POST /Users with the default mappings) and maps them into Sesame', async () => {
      const created = await entra.scim('POST', '/Users', {
        schemas: [userSchema, enterprise],
        externalId: 'AdeleV',
        userName: email,
        active: true,
        displayName: 'Adele Vance',
        title: 'Retail Manager',
        preferredLanguage: 'fr-FR',
        emails: [{ primary: true, type: 'work', value: email }],
        meta: { resourceType: 'User' },
        name: { formatted: 'Adele Vance', familyName: 'Vance', givenName: 'Adele' },
        addresses: [
          {
            type: 'work',
            formatted: '18/2111',
            streetAddress: '205 108th Ave NE',
            locality: 'Bellevue',
            region: 'WA',
            postalCode: '98004',
            country: 'US',
          },
        ],
        phoneNumbers: [
          { type: 'work', value: '+1 425 555 0109' },
          { type: 'fax', value: '+1 425 555 0111' },
        ],
        [enterprise]: { employeeNumber: '100009', department: 'Retail' },
        roles: [],
      });
      expect(created.status).toBe(201);
      adele = created.body.id;
      const boss = await entra.scim('POST', '/Users', {
        schemas: [userSchema, enterprise],
        externalId: 'MeganB',
        userName: `MeganB@entra-${suffix}.example`,
        active: true,
        emails: [{ primary: true, type: 'work', value: `MeganB@entra-${suffix}.example` }],
        meta: { resourceType: 'User' },
        name: { formatted: 'Megan Bowen', familyName: 'Bowen', givenName: 'Megan' },
        roles: [],
      });
      expect(boss.status).toBe(201);
      manager = boss.body.id;
      expect((await entra.scim('GET', `/Users/${adele}`)).body).toMatchObject({
        userName: email,
        externalId: 'AdeleV',
        title: 'Retail Manager',
        addresses: [{ type: 'work', formatted: '18/2111', postalCode: '98004' }],
        [enterprise]: { employeeNumber: '100009', department: 'Retail' },
      });
      expect(await entra.sesameUser(email)).toMatchObject({
        email,
        active: true,
        phone_number: '+14255550109',
        profile: { given_name: 'Adele', family_name: 'Vance', preferred_username: email, locale: 'fr-FR' },
        address: {
          formatted: '18/2111',
          street_address: '205 108th Ave NE',
          locality: 'Bellevue',
          region: 'WA',
          postal_code: '98004',
          country: 'US',
        },
        metadata: { title: 'Retail Manager', employee_number: '100009', department: 'Retail' },
      });
      for (const path of [
        `/Users?${filter(`userName eq "${email}"`)}`,
        `/Users?${filter('externalId eq "AdeleV"')}`,
        `/Users?${filter(`emails[type eq "work"].value eq "${email}"`)}`,
      ])
        expect((await entra.scim('GET', path)).body.Resources.map((user: { id: string }) => user.id)).toEqual([adele]);
      // The email and the type must belong to the same entry.
      expect((await entra.scim('GET', `/Users?${filter(`emails[type eq "home"].value eq "${email}"`)}`)).body).toMatchObject({
        totalResults: 0,
      });
    });

    it('applies the PATCH bodies Entra sends without the flag: capitalised ops, filtered paths of entries not there yet, the manager id, "False"', async () => {
      const patch = (Operations: unknown[]) => entra.scim('PATCH', `/Users/${adele}`, { schemas: [patchOp], Operations });
      // "Requests to replace multiple attributes", without the flag.
      expect(
        await patch([
          { op: 'Replace', path: 'displayName', value: 'Adele V.' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: `Adele.Vance@entra-${suffix}.example` },
          { op: 'Replace', path: 'name.givenName', value: 'Adela' },
          { op: 'Replace', path: 'name.familyName', value: 'Vancé' },
          { op: 'Replace', path: 'externalId', value: 'AdeleVance' },
          { op: 'Replace', path: `${enterprise}:employeeNumber`, value: '100010' },
        ]),
      ).toMatchObject({ status: 204 });
      // A new mobile number, office and manager: entries and attributes the user does not have yet.
      expect(
        await patch([
          { op: 'Add', path: 'nickName', value: 'Babs' },
          { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+33 6 12 34 56 78' },
          { op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '+1 425 555 0199' },
          { op: 'Add', path: 'addresses[type eq "other"].formatted', value: 'Building 4' },
          { op: 'Replace', path: 'addresses[type eq "work"].postalCode', value: '98005' },
          { op: 'Add', path: `${enterprise}:manager`, value: manager },
          { op: 'Add', path: `${enterprise}:department`, value: 'Sales' },
        ]),
      ).toMatchObject({ status: 204 });
      const user = (await entra.scim('GET', `/Users/${adele}`)).body;
      expect(user).toMatchObject({
        displayName: 'Adele V.',
        externalId: 'AdeleVance',
        nickName: 'Babs',
        name: { givenName: 'Adela', familyName: 'Vancé' },
        emails: [{ type: 'work', value: `Adele.Vance@entra-${suffix}.example` }],
        phoneNumbers: [
          { type: 'work', value: '+1 425 555 0199' },
          { type: 'fax', value: '+1 425 555 0111' },
          { type: 'mobile', value: '+33 6 12 34 56 78' },
        ],
        addresses: [
          { type: 'work', formatted: '18/2111', postalCode: '98005' },
          { type: 'other', formatted: 'Building 4' },
        ],
        [enterprise]: { employeeNumber: '100010', department: 'Sales', manager: { value: manager } },
      });
      const newEmail = `Adele.Vance@entra-${suffix}.example`;
      expect(await entra.sesameUser(newEmail)).toMatchObject({
        email: newEmail,
        phone_number: '+14255550199',
        profile: { given_name: 'Adela', family_name: 'Vancé', nickname: 'Babs' },
        address: { formatted: '18/2111', postal_code: '98005' },
        metadata: { employee_number: '100010', department: 'Sales', manager_id: manager },
      });
      expect(await patch([{ op: 'Replace', path: 'active', value: 'False' }])).toMatchObject({ status: 204 });
      expect((await entra.scim('GET', `/Users/${adele}`)).body.active).toBe(false);
      expect((await entra.sesameUser(newEmail)).active).toBe(false);
      expect(await patch([{ op: 'Replace', path: 'active', value: 'True' }])).toMatchObject({ status: 204 });
      expect((await entra.sesameUser(newEmail)).active).toBe(true);
      // Attribute names and schema URNs are case-insensitive (RFC 7643 section 2.1), the core URN may prefix a path.
      expect(
        await patch([
          { op: 'Replace', path: 'Name.GivenName', value: 'Adele' },
          { op: 'Replace', path: `${userSchema}:title`, value: 'Retail Director' },
          { op: 'Replace', path: `${enterprise.toLowerCase()}:Department`, value: 'Retail' },
          { op: 'Remove', path: `${enterprise}:manager` },
        ]),
      ).toMatchObject({ status: 204 });
      expect((await entra.scim('GET', `/Users/${adele}`)).body).toMatchObject({
        name: { givenName: 'Adele' },
        title: 'Retail Director',
        [enterprise]: { employeeNumber: '100010', department: 'Retail' },
      });
      expect((await entra.scim('GET', `/Users/${adele}`)).body[enterprise].manager).toBeUndefined();
      // What is still refused: an unknown attribute, and a value filter that cannot be read.
      expect(await patch([{ op: 'Replace', value: { 'nickname.first': 'Babs' } }])).toMatchObject({
        status: 400,
        body: {
          schemas: [errorSchema],
          status: '400',
          scimType: 'invalidPath',
          detail: "Invalid path 'nickName.first' for 'replace' op of operation 1 in PatchOp request body",
        },
      });
      expect(await patch([{ op: 'Add', path: 'phoneNumbers[type eq].value', value: '+33' }])).toMatchObject({
        status: 400,
        body: {
          schemas: [errorSchema],
          status: '400',
          scimType: 'invalidFilter',
          detail: 'The filter is not valid: [(EOT)] is not json',
        },
      });
    });

    it('applies the PATCH bodies Entra sends with ?aadOptscim062020: a value without path keyed by attribute paths, active as a boolean', async () => {
      const created = await flagged.scim('POST', '/Users', {
        schemas: [userSchema, enterprise],
        externalId: 'AlexW',
        userName: `AlexW@flag-${suffix}.example`,
        active: true,
        emails: [{ primary: true, type: 'work', value: `AlexW@flag-${suffix}.example` }],
        meta: { resourceType: 'User' },
        name: { formatted: 'Alex Wilber', familyName: 'Wilber', givenName: 'Alex' },
        roles: [],
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const patch = (Operations: unknown[]) => flagged.scim('PATCH', `/Users/${id}`, { schemas: [patchOp], Operations });
      expect(
        await patch([
          { op: 'replace', path: 'emails[type eq "work"].value', value: `Alex.Wilber@flag-${suffix}.example` },
          {
            op: 'replace',
            value: {
              displayName: 'Alex W.',
              'name.givenName': 'Alexander',
              'name.familyName': 'Wilbur',
              [`${enterprise}:employeeNumber`]: 'Aklq',
              [`${enterprise}:manager`]: adele,
            },
          },
        ]),
      ).toMatchObject({ status: 204 });
      expect((await flagged.scim('GET', `/Users/${id}`)).body).toMatchObject({
        displayName: 'Alex W.',
        name: { givenName: 'Alexander', familyName: 'Wilbur' },
        [enterprise]: { employeeNumber: 'Aklq', manager: { value: adele } },
      });
      const newEmail = `Alex.Wilber@flag-${suffix}.example`;
      expect(await flagged.sesameUser(newEmail)).toMatchObject({
        profile: { given_name: 'Alexander', family_name: 'Wilbur' },
        metadata: { employee_number: 'Aklq', manager_id: adele },
      });
      expect(await patch([{ op: 'replace', path: 'active', value: false }])).toMatchObject({ status: 204 });
      expect((await flagged.sesameUser(newEmail)).active).toBe(false);
      expect(await patch([{ op: 'add', path: 'nickName', value: 'Babs' }])).toMatchObject({ status: 204 });
      expect(await flagged.scim('DELETE', `/Users/${id}`)).toMatchObject({ status: 204 });
      expect(await flagged.scim('GET', `/Users/${id}`)).toMatchObject({ status: 404 });
    });

    it('creates a group empty, renames it, adds and removes members in both forms (value list, then members[value eq])', async () => {
      for (const client of [entra, flagged]) {
        const group = await client.scim('POST', '/Groups', {
          schemas: [groupSchema, adGroupSchema],
          externalId: randomUUID(),
          displayName: 'Retail',
          meta: { resourceType: 'Group' },
        });
        expect(group).toMatchObject({ status: 201, body: { displayName: 'Retail' } });
        const path = `/Groups/${group.body.id}`;
        const patch = (Operations: unknown[]) => client.scim('PATCH', path, { schemas: [patchOp], Operations });
        const member = client === entra ? adele : (await client.scim('GET', '/Users')).body.Resources[0]?.id;
        const members = async () => (await client.scim('GET', path)).body.members ?? [];
        expect(await patch([{ op: 'Replace', path: 'displayName', value: 'Retail EMEA' }])).toMatchObject({ status: 204 });
        const byName = await client.scim('GET', `/Groups?excludedAttributes=members&${filter('displayName eq "Retail EMEA"')}`);
        expect(byName.body.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
        if (!member) continue;
        expect(await patch([{ op: 'Add', path: 'members', value: [{ $ref: null, value: member }] }])).toMatchObject({
          status: 204,
        });
        expect((await members()).map((entry: { value: string }) => entry.value)).toEqual([member]);
        const removal =
          client === entra
            ? [{ op: 'Remove', path: 'members', value: [{ value: member }] }]
            : [{ op: 'remove', path: `members[value eq "${member}"]` }];
        expect(await patch(removal)).toMatchObject({ status: 204 });
        expect(await members()).toEqual([]);
        expect(await client.scim('DELETE', path)).toMatchObject({ status: 204 });
      }
    });
  });

  describe('Okta (SCIM 2.0 Protocol Reference)', () => {
    let okta: Awaited<ReturnType<typeof directory>>;
    let id: string;
    const email = `test.user@okta-${suffix}.example`;
    beforeAll(async () => {
      okta = await directory('okta');
    });

    it('looks the user up, creates it (POST with password, groups, locale), reads it back', async () => {
      expect(await okta.scim('GET', `/Users?${filter(`userName eq "${email}"`)}&startIndex=1&count=100`)).toMatchObject({
        status: 200,
        body: { totalResults: 0, Resources: [] },
      });
      const created = await okta.scim('POST', '/Users', {
        schemas: [userSchema],
        userName: email,
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: email, type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      });
      expect(created).toMatchObject({ status: 201, body: { userName: email, externalId: '00ujl29u0le5T6Aj10h7', active: true } });
      expect(created.body.password).toBeUndefined();
      id = created.body.id;
      expect(await okta.sesameUser(email)).toMatchObject({
        email,
        active: true,
        profile: { given_name: 'Test', family_name: 'User', preferred_username: email },
      });
      expect((await okta.scim('GET', '/Users?startIndex=1&count=100')).body).toMatchObject({ totalResults: 1, startIndex: 1 });
    });

    it('replaces the user with the PUT Okta sends (id, groups and meta included)', async () => {
      const put = await okta.scim('PUT', `/Users/${id}`, {
        schemas: [userSchema],
        id,
        userName: email,
        name: { givenName: 'Another', middleName: 'Excited', familyName: 'User' },
        emails: [{ primary: true, value: email, type: 'work', display: email }],
        active: true,
        groups: [],
        meta: { resourceType: 'User' },
      });
      expect(put).toMatchObject({ status: 200, body: { id, name: { givenName: 'Another', middleName: 'Excited' } } });
      expect((await okta.sesameUser(email)).profile).toMatchObject({ given_name: 'Another', family_name: 'User' });
    });

    it('deactivates and reactivates with PATCH replace without path ({ active: false })', async () => {
      const active = (value: boolean) =>
        okta.scim('PATCH', `/Users/${id}`, {
          schemas: [patchOp],
          Operations: [{ op: 'replace', value: { active: value } }],
        });
      expect(await active(false)).toMatchObject({ status: 204 });
      expect((await okta.sesameUser(email)).active).toBe(false);
      expect(await active(true)).toMatchObject({ status: 204 });
      expect((await okta.sesameUser(email)).active).toBe(true);
    });

    it('pushes a group: create with no members, rename with the id in the value, membership add/remove/replace, delete', async () => {
      const group = await okta.scim('POST', '/Groups', { schemas: [groupSchema], displayName: 'Test SCIMv2', members: [] });
      expect(group).toMatchObject({ status: 201, body: { displayName: 'Test SCIMv2' } });
      const groupId = group.body.id;
      const patch = (Operations: unknown[]) => okta.scim('PATCH', `/Groups/${groupId}`, { schemas: [patchOp], Operations });
      expect(await patch([{ op: 'replace', value: { id: groupId, displayName: 'Test SCIMv20' } }])).toMatchObject({
        status: 204,
      });
      expect(
        await patch([
          { op: 'remove', path: 'members[value eq "89bb1940-b905-4575-9e7f-6f887cfb368e"]' },
          { op: 'add', path: 'members', value: [{ value: id, display: email }] },
        ]),
      ).toMatchObject({ status: 204 });
      expect((await okta.scim('GET', `/Groups/${groupId}`)).body).toMatchObject({
        displayName: 'Test SCIMv20',
        members: [{ value: id, display: email }],
      });
      expect(await patch([{ op: 'replace', path: 'members', value: [{ value: id, display: email }] }])).toMatchObject({
        status: 204,
      });
      expect((await okta.scim('GET', '/Groups?startIndex=1&count=100')).body).toMatchObject({ totalResults: 1 });
      expect(await okta.scim('DELETE', `/Groups/${groupId}`)).toMatchObject({ status: 204 });
    });
  });

  describe('OneLogin (SCIM Provisioner with SAML, SCIM v2 Enterprise template)', () => {
    let onelogin: Awaited<ReturnType<typeof directory>>;
    const email = `jane.doe@onelogin-${suffix}.example`;
    const template = (department: string) => ({
      schemas: [userSchema, enterprise],
      userName: email,
      name: { familyName: 'Doe', givenName: 'Jane' },
      title: 'Engineer',
      userType: 'Employee',
      timezone: 'Europe/Paris',
      emails: [{ value: email, type: 'work', primary: true }],
      addresses: [{ locality: 'Lyon', region: 'Rhône', country: 'FR' }],
      [enterprise]: {
        organization: 'Acme',
        division: 'R&D',
        department,
        manager: { value: 'mgr-42', displayName: 'John Smith' },
      },
    });
    beforeAll(async () => {
      onelogin = await directory('onelogin');
    });

    it('creates the user from the template, updates it with PUT, deletes it', async () => {
      const created = await onelogin.scim('POST', '/Users', template('Platform'));
      expect(created).toMatchObject({
        status: 201,
        body: { [enterprise]: { department: 'Platform', manager: { value: 'mgr-42', displayName: 'John Smith' } } },
      });
      expect(await onelogin.sesameUser(email)).toMatchObject({
        email,
        profile: { given_name: 'Jane', family_name: 'Doe', zoneinfo: 'Europe/Paris' },
        address: { locality: 'Lyon', region: 'Rhône', country: 'FR' },
        metadata: { title: 'Engineer', department: 'Platform', manager_id: 'mgr-42' },
      });
      const put = await onelogin.scim('PUT', `/Users/${created.body.id}`, template('Security'));
      expect(put).toMatchObject({ status: 200, body: { [enterprise]: { department: 'Security' } } });
      expect((await onelogin.sesameUser(email)).metadata).toMatchObject({ department: 'Security' });
      expect(await onelogin.scim('DELETE', `/Users/${created.body.id}`)).toMatchObject({ status: 204 });
      expect(await onelogin.sesame(email)).toMatchObject({ status: 404 });
    });
  });
});
