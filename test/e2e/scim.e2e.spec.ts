import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization } from '../support/identity-fixtures';

const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const errorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';
const searchRequest = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

const scimError = (status: number, scimType?: string) => ({
  schemas: [errorSchema],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail: expect.any(String),
});

describe('SCIM 2.0 endpoints over HTTP (all processes, real NATS)', () => {
  let system: System;
  let domain: string;
  let base: string;
  let token: string;
  beforeAll(async () => {
    system = await sharedSystem();
    domain = await createOrganization(system, 'Scim Corp');
    const { body } = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, {
      body: { provider_type: 'azure_ad' },
    });
    base = new URL(body.scim_base_url).pathname;
    token = body.auth_secret_token.value;
  });

  const scim = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    system.request(method, `${base}${path}`, {
      token,
      headers: { 'content-type': 'application/scim+json', ...headers },
      ...(body === undefined ? {} : { body }),
    });
  const sesameUser = async (id: string) => (await system.request('GET', `/api/v2/org/${domain}/users/${id}`)).body;

  describe('authentication', () => {
    it('answers 401 in the SCIM shape without a token, with a wrong one, or for an unknown directory', async () => {
      for (const answer of [
        await system.request('GET', `${base}/Users`, { token: null }),
        await system.request('GET', `${base}/Users`, { token: 'scim_wrong' }),
        await system.request('GET', `/scim/v2/00000000-0000-4000-8000-000000000000/Users`, { token }),
      ]) {
        expect(answer).toMatchObject({ status: 401, body: scimError(401) });
        expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      }
    });

    it('answers 403 while the directory sync is inactive, and the old token stops working after a rotation', async () => {
      const other = await createOrganization(system, 'Scim Inactive Corp');
      const created = await system.request('POST', `/api/v2/org/${other}/directory-sync`, { body: { active: false } });
      const path = new URL(created.body.scim_base_url).pathname;
      const first = created.body.auth_secret_token.value;
      expect(await system.request('GET', `${path}/Users`, { token: first })).toMatchObject({ status: 403, body: scimError(403) });
      const rotated = await system.request('PUT', `/api/v2/org/${other}/directory-sync`, {
        body: { active: true, rotate_auth_secret_token: true },
      });
      expect(await system.request('GET', `${path}/Users`, { token: first })).toMatchObject({ status: 401 });
      expect(await system.request('GET', `${path}/Users`, { token: rotated.body.auth_secret_token.value })).toMatchObject({
        status: 200,
      });
    });
  });

  describe('discovery', () => {
    it('describes the service provider, resource types and schemas', async () => {
      const config = await scim('GET', '/ServiceProviderConfig');
      expect(config).toMatchObject({
        status: 200,
        body: {
          patch: { supported: true },
          filter: { supported: true, maxResults: 1000 },
          etag: { supported: true },
          sort: { supported: true },
        },
      });
      expect((await scim('GET', '/serviceConfiguration')).body).toEqual(config.body);
      const types = await scim('GET', '/ResourceTypes');
      expect(types.body.Resources.map((type: { endpoint: string }) => type.endpoint)).toEqual(['/Users', '/Groups']);
      expect((await scim('GET', '/ResourceTypes/User')).body.schemaExtensions).toEqual([{ schema: enterprise, required: false }]);
      const schemas = await scim('GET', '/Schemas');
      expect(schemas.body.Resources.map((schema: { id: string }) => schema.id)).toEqual([userSchema, enterprise, groupSchema]);
      expect((await scim('GET', `/Schemas/${userSchema}`)).body.description).toBe('User Account');
      expect(await scim('GET', '/Schemas/urn:nope')).toMatchObject({ status: 404, body: scimError(404) });
    });
  });

  describe('users', () => {
    let ada: any;

    it('provisions a user: 201 with meta, Location and ETag, and a Sesame user from the attribute mapping', async () => {
      const answer = await scim('POST', '/Users', {
        schemas: [userSchema, enterprise],
        userName: 'ada@scim.example',
        externalId: 'ext-ada',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: 'ada@scim.example', type: 'work', primary: 'True' }],
        active: 'True',
        password: 'never-stored',
        [enterprise]: { department: 'Engines', manager: { value: 'babbage' } },
      });
      expect(answer.status).toBe(201);
      ada = answer.body;
      expect(ada).toEqual({
        schemas: [userSchema, enterprise],
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        externalId: 'ext-ada',
        userName: 'ada@scim.example',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: 'ada@scim.example', type: 'work', primary: true }],
        active: true,
        [enterprise]: { department: 'Engines', manager: { value: 'babbage' } },
        meta: {
          resourceType: 'User',
          created: expect.any(String),
          lastModified: expect.any(String),
          location: `${system.baseUrl}${base}/Users/${ada.id}`,
          version: 'W/"1"',
        },
      });
      expect(answer.headers.get('location')).toBe(ada.meta.location);
      expect(answer.headers.get('etag')).toBe('W/"1"');
      expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      const users = await system.request('GET', `/api/v2/org/${domain}/users/ada@scim.example`);
      expect(users.body).toMatchObject({
        email: 'ada@scim.example',
        active: true,
        profile: { given_name: 'Ada', family_name: 'Lovelace' },
      });
    });

    it('refuses a taken userName (any case) with 409 uniqueness, a missing one and bad types with 400', async () => {
      expect(await scim('POST', '/Users', { schemas: [userSchema], userName: 'ADA@scim.example' })).toMatchObject({
        status: 409,
        body: scimError(409, 'uniqueness'),
      });
      expect(await scim('POST', '/Users', { schemas: [userSchema], displayName: 'Nobody' })).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidValue'),
      });
      expect(await scim('POST', '/Users', { schemas: [userSchema], userName: 'x', active: 'maybe' })).toMatchObject({
        status: 400,
      });
      expect(await scim('POST', '/Users', '{"userName": tre')).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidSyntax'),
      });
    });

    it('reads a user, with attributes or excludedAttributes', async () => {
      expect(await scim('GET', `/Users/${ada.id}`)).toMatchObject({ status: 200, body: ada });
      expect((await scim('GET', `/Users/${ada.id}?attributes=userName,name.givenName`)).body).toEqual({
        schemas: ada.schemas,
        id: ada.id,
        userName: ada.userName,
        name: { givenName: 'Ada' },
      });
      const excluded = (await scim('GET', `/Users/${ada.id}?excludedAttributes=emails,${enterprise}:manager`)).body;
      expect(excluded.emails).toBeUndefined();
      expect(excluded[enterprise]).toEqual({ department: 'Engines' });
      expect(await scim('GET', '/Users/00000000-0000-4000-8000-000000000000')).toMatchObject({
        status: 404,
        body: scimError(404),
      });
    });

    it('filters with the full grammar, pages and sorts', async () => {
      for (const [userName, familyName, type] of [
        ['grace', 'Hopper', 'work'],
        ['alan', 'Turing', 'home'],
        ['edsger', 'Dijkstra', 'work'],
      ])
        expect(
          await scim('POST', '/Users', {
            schemas: [userSchema],
            userName,
            name: { familyName },
            emails: [{ value: `${userName}@scim.example`, type }],
          }),
        ).toMatchObject({ status: 201 });
      const names = async (query: string) => {
        const answer = await scim('GET', `/Users?${query}`);
        expect(answer.status).toBe(200);
        return answer.body.Resources.map((user: { userName: string }) => user.userName);
      };
      const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;
      expect(await names(filter('userName eq "GRACE"'))).toEqual(['grace']);
      expect(await names(filter('emails[type eq "work" and value ew "scim.example"]'))).toEqual([
        'ada@scim.example',
        'grace',
        'edsger',
      ]);
      expect(await names(filter('not (emails.type eq "work") or name.familyName sw "hop"'))).toEqual(['grace', 'alan']);
      expect(await names(filter(`${enterprise}:department eq "Engines"`))).toEqual(['ada@scim.example']);
      expect(await names(filter('meta.created gt "2000-01-01T00:00:00Z" and externalId pr'))).toEqual(['ada@scim.example']);
      expect(await names('sortBy=userName&sortOrder=descending&count=2')).toEqual(['grace', 'edsger']);
      const page = await scim('GET', '/Users?startIndex=2&count=2');
      expect(page.body).toMatchObject({ totalResults: 4, startIndex: 2, itemsPerPage: 2 });
      expect(page.body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['grace', 'alan']);
      expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ totalResults: 4, itemsPerPage: 0, Resources: [] });
      expect(await scim('GET', `/Users?${filter('userName eq')}`)).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidFilter'),
      });
      expect(await scim('GET', `/Users?${filter('userName xx "a"')}`)).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidFilter'),
      });
      expect(await scim('GET', '/Users?startIndex=abc')).toMatchObject({ status: 400, body: scimError(400, 'invalidValue') });
    });

    it('searches with POST /Users/.search, answering what the same GET listing answers', async () => {
      const filter = 'emails[type eq "work"]';
      const search = await scim('POST', '/Users/.search', {
        schemas: [searchRequest],
        filter,
        sortBy: 'userName',
        sortOrder: 'descending',
        startIndex: 1,
        count: 2,
        attributes: ['userName', 'emails'],
      });
      expect(search.status).toBe(200);
      expect(search.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(search.body).toMatchObject({ totalResults: 3, startIndex: 1, itemsPerPage: 2 });
      expect(search.body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['grace', 'edsger']);
      const query = `filter=${encodeURIComponent(filter)}&sortBy=userName&sortOrder=descending&startIndex=1&count=2&attributes=userName,emails`;
      expect(search.body).toEqual((await scim('GET', `/Users?${query}`)).body);
      const excluded = await scim('POST', '/users/.search', { schemas: [searchRequest], excludedAttributes: ['emails', 'name'] });
      expect(excluded).toMatchObject({ status: 200, body: { totalResults: 4 } });
      expect(excluded.body).toEqual((await scim('GET', '/Users?excludedAttributes=emails,name')).body);
      expect(excluded.body.Resources[0].emails).toBeUndefined();
    });

    it('refuses a search without the SearchRequest schema, with wrong types or a bad filter, in the SCIM shape', async () => {
      const search = (body: unknown) => scim('POST', '/Users/.search', body);
      const refusal = (detail: string, scimType = 'invalidValue') => ({
        status: 400,
        body: { schemas: [errorSchema], status: '400', scimType, detail },
      });
      expect(await search({ filter: 'userName pr' })).toMatchObject(refusal("schemas can't be blank"));
      expect(await search({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] })).toMatchObject(
        refusal(`schemas must include ${searchRequest}`),
      );
      expect(await search({ schemas: [searchRequest], count: '2', attributes: 'userName' })).toMatchObject(
        refusal('count must be an integer; attributes must be an array'),
      );
      expect(await search({ schemas: [searchRequest], sortOrder: 'up' })).toMatchObject(
        refusal('sortOrder must be ascending or descending'),
      );
      expect(await search([searchRequest])).toMatchObject(refusal('base must be a JSON object or form fields'));
      expect(await search({ schemas: [searchRequest], filter: 'userName xx "a"' })).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidFilter'),
      });
      expect(
        await system.request('POST', `${base}/Users/.search`, { token: null, body: { schemas: [searchRequest] } }),
      ).toMatchObject({
        status: 401,
        body: scimError(401),
      });
    });

    it('replaces a user with PUT, honouring If-Match (412 on a stale version)', async () => {
      const put = { schemas: [userSchema], userName: 'ada@scim.example', name: { givenName: 'Augusta' }, emails: ada.emails };
      const before = { scim: (await scim('GET', `/Users/${ada.id}`)).body, sesame: await sesameUser('ada@scim.example') };
      expect(await scim('PUT', `/Users/${ada.id}`, put, { 'if-match': 'W/"7"' })).toMatchObject({
        status: 412,
        body: { ...scimError(412), detail: 'The resource version is W/"1", not W/"7"' },
      });
      // Refused before anything happened: neither the SCIM user nor the Sesame user changed.
      expect((await scim('GET', `/Users/${ada.id}`)).body).toEqual(before.scim);
      expect(await sesameUser('ada@scim.example')).toEqual(before.sesame);
      const replaced = await scim('PUT', `/Users/${ada.id}`, put, { 'if-match': 'W/"1"' });
      expect(replaced).toMatchObject({ status: 200, body: { name: { givenName: 'Augusta' }, meta: { version: 'W/"2"' } } });
      expect(replaced.body[enterprise]).toBeUndefined();
      expect((await system.request('GET', `/api/v2/org/${domain}/users/ada@scim.example`)).body.profile.given_name).toBe(
        'Augusta',
      );
    });

    it('patches: add, replace, remove, with and without path, filtered paths, Entra ID capitalised ops and string booleans', async () => {
      const patch = (Operations: unknown[]) => scim('PATCH', `/Users/${ada.id}`, { schemas: [patchOp], Operations });
      expect(
        await patch([
          { op: 'Add', path: 'emails', value: [{ value: 'ada@home.example', type: 'home' }] },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'countess@scim.example' },
          { op: 'add', value: { displayName: 'Countess', 'name.familyName': 'King' } },
          { op: 'replace', path: `${enterprise}:department`, value: 'Analytical' },
        ]),
      ).toMatchObject({ status: 204 });
      let user = (await scim('GET', `/Users/${ada.id}`)).body;
      expect(user).toMatchObject({
        displayName: 'Countess',
        name: { givenName: 'Augusta', familyName: 'King' },
        emails: [
          { value: 'countess@scim.example', type: 'work' },
          { value: 'ada@home.example', type: 'home' },
        ],
        [enterprise]: { department: 'Analytical' },
      });
      expect(
        await patch([
          { op: 'Remove', path: 'emails[type eq "home"]' },
          { op: 'remove', path: 'displayName' },
        ]),
      ).toMatchObject({ status: 204 });
      user = (await scim('GET', `/Users/${ada.id}`)).body;
      expect(user.emails).toEqual([{ value: 'countess@scim.example', type: 'work', primary: true }]);
      expect(user.displayName).toBeUndefined();
      expect(await patch([{ op: 'replace', path: 'id', value: 'x' }])).toMatchObject({
        status: 400,
        body: scimError(400, 'mutability'),
      });
      expect(await patch([{ op: 'replace', path: 'nope', value: 'x' }])).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidPath'),
      });
      expect(await patch([{ op: 'remove', path: 'userName' }])).toMatchObject({ status: 400 });
    });

    it('deactivates the Sesame user on PATCH active false (Okta) or "False" (Entra ID), and reactivates it', async () => {
      const sesame = (await system.request('GET', `/api/v2/org/${domain}/users/countess@scim.example`)).body;
      expect(
        await scim('PATCH', `/Users/${ada.id}`, {
          schemas: [patchOp],
          Operations: [{ op: 'replace', value: { active: false } }],
        }),
      ).toMatchObject({
        status: 204,
      });
      expect((await scim('GET', `/Users/${ada.id}`)).body.active).toBe(false);
      expect((await sesameUser(sesame.id)).active).toBe(false);
      await scim('PATCH', `/Users/${ada.id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
      });
      expect((await sesameUser(sesame.id)).active).toBe(true);
      await scim('PATCH', `/Users/${ada.id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      });
      expect((await sesameUser(sesame.id)).active).toBe(false);
    });
  });

  describe('groups', () => {
    let members: { id: string; userName: string }[];
    let group: any;

    it('creates a group with members of the directory, leaving out unknown ones', async () => {
      members = (await scim('GET', '/Users')).body.Resources;
      const answer = await scim('POST', '/Groups', {
        schemas: [groupSchema],
        displayName: 'Engineers',
        externalId: 'grp-1',
        members: [{ value: members[1]?.id, display: 'grace' }, { value: 'not-a-user' }],
      });
      expect(answer).toMatchObject({
        status: 201,
        body: {
          displayName: 'Engineers',
          externalId: 'grp-1',
          members: [{ value: members[1]?.id, display: 'grace' }],
          meta: { resourceType: 'Group' },
        },
      });
      group = answer.body;
      expect((await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "engineers"')}`)).body.totalResults).toBe(1);
      expect((await scim('GET', `/Groups/${group.id}?excludedAttributes=members`)).body.members).toBeUndefined();
    });

    it('changes membership with PATCH: add, remove by filter, remove by value list (Entra ID), remove all', async () => {
      const patch = (Operations: unknown[]) => scim('PATCH', `/Groups/${group.id}`, { schemas: [patchOp], Operations });
      const memberIds = async () =>
        ((await scim('GET', `/Groups/${group.id}`)).body.members ?? []).map((member: { value: string }) => member.value);
      const [, grace, alan, edsger] = members.map((member) => member.id);
      await patch([{ op: 'Add', path: 'members', value: [{ value: alan }, { value: edsger }] }]);
      expect(await memberIds()).toEqual([grace, alan, edsger]);
      await patch([{ op: 'remove', path: `members[value eq "${alan}"]` }]);
      expect(await memberIds()).toEqual([grace, edsger]);
      await patch([{ op: 'Remove', path: 'members', value: [{ value: grace }] }]);
      expect(await memberIds()).toEqual([edsger]);
      await patch([{ op: 'replace', path: 'displayName', value: 'Engineering' }]);
      expect((await scim('GET', `/Groups/${group.id}`)).body.displayName).toBe('Engineering');
      await patch([{ op: 'remove', path: 'members' }]);
      expect(await memberIds()).toEqual([]);
    });

    it('replaces a group with PUT and deletes it', async () => {
      const replaced = await scim('PUT', `/Groups/${group.id}`, {
        schemas: [groupSchema],
        displayName: 'Renamed',
        members: [{ value: members[0]?.id }],
      });
      expect(replaced).toMatchObject({ status: 200, body: { displayName: 'Renamed', members: [{ value: members[0]?.id }] } });
      expect(await scim('PUT', `/Groups/${group.id}`, { schemas: [groupSchema] })).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidValue'),
      });
      expect(await scim('DELETE', `/Groups/${group.id}`)).toMatchObject({ status: 204 });
      expect(await scim('GET', `/Groups/${group.id}`)).toMatchObject({ status: 404, body: scimError(404) });
      expect(await scim('DELETE', `/Groups/${group.id}`)).toMatchObject({ status: 404 });
    });

    it('searches users and groups together with POST /.search, and groups alone with POST /Groups/.search', async () => {
      const made = await scim('POST', '/Groups', { schemas: [groupSchema], displayName: 'Searchers', externalId: 'grp-search' });
      expect(made).toMatchObject({ status: 201 });
      const both = await scim('POST', '/.search', {
        schemas: [searchRequest],
        filter: 'userName eq "grace" or displayName eq "searchers"',
        attributes: ['userName', 'displayName'],
      });
      expect(both).toMatchObject({ status: 200, body: { totalResults: 2, itemsPerPage: 2 } });
      expect(both.body.Resources).toEqual([
        expect.objectContaining({ schemas: [userSchema], userName: 'grace' }),
        expect.objectContaining({ schemas: [groupSchema], id: made.body.id, displayName: 'Searchers' }),
      ]);
      const groups = await scim('POST', '/Groups/.search', { schemas: [searchRequest], filter: 'externalId eq "grp-search"' });
      expect(groups).toMatchObject({ status: 200, body: { totalResults: 1, Resources: [{ id: made.body.id }] } });
      expect(await scim('POST', '/.search', { schemas: [searchRequest], filter: 'displayName eq' })).toMatchObject({
        status: 400,
        body: scimError(400, 'invalidFilter'),
      });
      expect(await scim('DELETE', `/Groups/${made.body.id}`)).toMatchObject({ status: 204 });
    });
  });

  it('deletes a user: 204, the Sesame user is deleted, its userName is free again, its groups lose it', async () => {
    const user = (
      await scim('POST', '/Users', { schemas: [userSchema], userName: 'temp', emails: [{ value: 'temp@scim.example' }] })
    ).body;
    const group = (await scim('POST', '/Groups', { schemas: [groupSchema], displayName: 'Temp', members: [{ value: user.id }] }))
      .body;
    const sesame = (await system.request('GET', `/api/v2/org/${domain}/users/temp@scim.example`)).body;
    const before = (await scim('GET', `/Users/${user.id}`)).body;
    expect(await scim('DELETE', `/Users/${user.id}`, undefined, { 'if-match': 'W/"9"' })).toMatchObject({
      status: 412,
      body: { ...scimError(412), detail: 'The resource version is W/"1", not W/"9"' },
    });
    // Refused before anything happened: the SCIM user, its Sesame user and its group membership are all still there.
    expect((await scim('GET', `/Users/${user.id}`)).body).toEqual(before);
    expect(await sesameUser(sesame.id)).toEqual(sesame);
    expect((await scim('GET', `/Groups/${group.id}`)).body.members).toEqual([expect.objectContaining({ value: user.id })]);
    expect(await scim('DELETE', `/Users/${user.id}`)).toMatchObject({ status: 204 });
    expect(await scim('GET', `/Users/${user.id}`)).toMatchObject({ status: 404 });
    expect(await system.request('GET', `/api/v2/org/${domain}/users/${sesame.id}`)).toMatchObject({ status: 404 });
    expect((await scim('GET', `/Groups/${group.id}`)).body.members).toEqual([]);
    expect(await scim('POST', '/Users', { schemas: [userSchema], userName: 'temp' })).toMatchObject({ status: 201 });
  });

  describe("a user's groups (readOnly, derived from the groups' members)", () => {
    let other: typeof scim;
    let otherBase: string;
    beforeAll(async () => {
      const otherDomain = await createOrganization(system, 'Scim Groups Corp');
      const { body } = await system.request('POST', `/api/v2/org/${otherDomain}/directory-sync`, {
        body: { provider_type: 'okta' },
      });
      otherBase = new URL(body.scim_base_url).pathname;
      other = (method, path, payload, headers = {}) =>
        system.request(method, `${otherBase}${path}`, {
          token: body.auth_secret_token.value,
          headers: { 'content-type': 'application/scim+json', ...headers },
          ...(payload === undefined ? {} : { body: payload }),
        });
    });

    const groupsOf = async (id: string) => (await other('GET', `/Users/${id}`)).body.groups;
    const entry = (group: { id: string; meta: { location: string } }, display: string) => ({
      value: group.id,
      $ref: group.meta.location,
      display,
      type: 'direct',
    });
    const userNames = async (filter: string) =>
      (await other('GET', `/Users?filter=${encodeURIComponent(filter)}`)).body.Resources.map(
        (user: { userName: string }) => user.userName,
      );

    it('follows group creation, renames, members added and removed (PATCH, PUT), group and user deletion', async () => {
      const newUser = async (userName: string) => {
        const answer = await other('POST', '/Users', {
          schemas: [userSchema],
          userName,
          groups: [{ value: 'made-up', display: 'Ignored' }],
        });
        expect(answer.status).toBe(201);
        expect(answer.body.groups).toBeUndefined();
        return answer.body;
      };
      const [ada, grace] = [await newUser('ada'), await newUser('grace')];
      const engineers = (
        await other('POST', '/Groups', {
          schemas: [groupSchema],
          displayName: 'Engineers',
          members: [{ value: ada.id }, { value: grace.id }],
        })
      ).body;
      const admins = (
        await other('POST', '/Groups', { schemas: [groupSchema], displayName: 'Admins', members: [{ value: ada.id }] })
      ).body;
      expect(engineers.meta.location).toBe(`${system.baseUrl}${otherBase}/Groups/${engineers.id}`);
      expect(await groupsOf(ada.id)).toEqual([entry(engineers, 'Engineers'), entry(admins, 'Admins')]);
      expect(await groupsOf(grace.id)).toEqual([entry(engineers, 'Engineers')]);

      const patchGroup = (id: string, Operations: unknown[]) =>
        other('PATCH', `/Groups/${id}`, { schemas: [patchOp], Operations });
      expect(await patchGroup(engineers.id, [{ op: 'replace', path: 'displayName', value: 'Engineering' }])).toMatchObject({
        status: 204,
      });
      expect(await groupsOf(grace.id)).toEqual([entry(engineers, 'Engineering')]);
      await patchGroup(engineers.id, [{ op: 'remove', path: `members[value eq "${grace.id}"]` }]);
      expect(await groupsOf(grace.id)).toBeUndefined();
      expect(await groupsOf(ada.id)).toEqual([entry(engineers, 'Engineering'), entry(admins, 'Admins')]);
      await patchGroup(engineers.id, [{ op: 'add', path: 'members', value: [{ value: grace.id }] }]);
      expect(await groupsOf(grace.id)).toEqual([entry(engineers, 'Engineering')]);

      const put = await other('PUT', `/Groups/${engineers.id}`, {
        schemas: [groupSchema],
        displayName: 'R&D',
        members: [{ value: grace.id }],
      });
      expect(put.status).toBe(200);
      expect(await groupsOf(ada.id)).toEqual([entry(admins, 'Admins')]);
      expect(await groupsOf(grace.id)).toEqual([entry(engineers, 'R&D')]);
      expect((await other('GET', `/Users/${ada.id}`)).body.meta.version).toBe('W/"1"');

      expect(await other('DELETE', `/Groups/${admins.id}`)).toMatchObject({ status: 204 });
      expect(await groupsOf(ada.id)).toBeUndefined();
      expect(await other('DELETE', `/Users/${grace.id}`)).toMatchObject({ status: 204 });
      expect((await other('GET', `/Groups/${engineers.id}`)).body.members).toEqual([]);
      const back = await newUser('grace');
      expect(await groupsOf(back.id)).toBeUndefined();
    });

    it('serves groups in listings, the userName lookup, attributes and excludedAttributes, and filters by them', async () => {
      const [ada, alan] = [
        (await other('POST', '/Users', { schemas: [userSchema], userName: 'ada2' })).body,
        (await other('POST', '/Users', { schemas: [userSchema], userName: 'alan' })).body,
      ];
      const ops = (await other('POST', '/Groups', { schemas: [groupSchema], displayName: 'Ops', members: [{ value: ada.id }] }))
        .body;
      const listed = (await other('GET', '/Users?count=1000')).body.Resources;
      expect(listed.find((user: { id: string }) => user.id === ada.id).groups).toEqual([entry(ops, 'Ops')]);
      expect(listed.find((user: { id: string }) => user.id === alan.id).groups).toBeUndefined();
      expect((await other('GET', `/Users?filter=${encodeURIComponent('userName eq "ADA2"')}`)).body.Resources).toEqual([
        (await other('GET', `/Users/${ada.id}`)).body,
      ]);
      expect((await other('GET', `/Users/${ada.id}?attributes=groups`)).body).toEqual({
        schemas: [userSchema],
        id: ada.id,
        groups: [entry(ops, 'Ops')],
      });
      expect((await other('GET', `/Users/${ada.id}?attributes=userName,groups.display`)).body).toEqual({
        schemas: [userSchema],
        id: ada.id,
        userName: 'ada2',
        groups: [{ display: 'Ops' }],
      });
      expect((await other('GET', `/Users/${ada.id}?excludedAttributes=groups`)).body.groups).toBeUndefined();
      expect(
        (await other('GET', `/Users?filter=${encodeURIComponent(`userName eq "ada2"`)}&excludedAttributes=groups`)).body,
      ).toMatchObject({ totalResults: 1, Resources: [{ userName: 'ada2' }] });
      expect(await userNames(`groups.value eq "${ops.id}"`)).toEqual(['ada2']);
      expect(await userNames('groups[display eq "ops" and type eq "direct"]')).toEqual(['ada2']);
      expect(await userNames('groups pr and userName sw "a"')).toEqual(['ada2']);
      expect(await userNames('not (groups pr) and userName eq "alan"')).toEqual(['alan']);
    });

    it('ignores groups sent in PUT, refuses a PATCH of them with 400 mutability and changes nothing', async () => {
      const ada = (await other('POST', '/Users', { schemas: [userSchema], userName: 'ada3' })).body;
      const team = (await other('POST', '/Groups', { schemas: [groupSchema], displayName: 'Team', members: [{ value: ada.id }] }))
        .body;
      const replaced = await other('PUT', `/Users/${ada.id}`, {
        schemas: [userSchema],
        userName: 'ada3',
        displayName: 'Ada',
        groups: [{ value: 'made-up', display: 'Ignored' }],
      });
      expect(replaced).toMatchObject({
        status: 200,
        body: { displayName: 'Ada', groups: [entry(team, 'Team')], meta: { version: 'W/"2"' } },
      });
      const patch = (operation: Record<string, unknown>) =>
        other('PATCH', `/Users/${ada.id}`, { schemas: [patchOp], Operations: [operation] });
      const refused = (op: string) => ({
        status: 400,
        body: {
          schemas: [errorSchema],
          status: '400',
          scimType: 'mutability',
          detail: `Attribute 'groups' is readOnly and cannot be changed by '${op}' op of operation 1 in PatchOp request body`,
        },
      });
      expect(await patch({ op: 'add', path: 'groups', value: [{ value: team.id }] })).toMatchObject(refused('add'));
      expect(await patch({ op: 'Remove', path: `groups[value eq "${team.id}"]` })).toMatchObject(refused('Remove'));
      expect(await patch({ op: 'replace', value: { displayName: 'Countess', groups: [] } })).toMatchObject(refused('replace'));
      expect((await other('GET', `/Users/${ada.id}`)).body).toMatchObject({
        displayName: 'Ada',
        groups: [entry(team, 'Team')],
        meta: { version: 'W/"2"' },
      });
    });

    it('describes groups in the User schema: readOnly, returned by default, value, $ref, display and type', async () => {
      const schema = (await other('GET', `/Schemas/${userSchema}`)).body;
      const groups = schema.attributes.find((attribute: { name: string }) => attribute.name === 'groups');
      expect(groups).toMatchObject({
        type: 'complex',
        multiValued: true,
        required: false,
        mutability: 'readOnly',
        returned: 'default',
      });
      expect(groups.subAttributes.map((sub: { name: string; mutability: string }) => [sub.name, sub.mutability])).toEqual([
        ['value', 'readOnly'],
        ['$ref', 'readOnly'],
        ['display', 'readOnly'],
        ['type', 'readOnly'],
      ]);
      expect(groups.subAttributes[1]).toMatchObject({ type: 'reference', referenceTypes: ['User', 'Group'] });
      expect(groups.subAttributes[3]).toMatchObject({ canonicalValues: ['direct', 'indirect'] });
    });
  });

  it('answers unknown SCIM paths with a SCIM 404, and lower-case endpoint names like the upper-case ones', async () => {
    expect(await scim('GET', '/Bulk')).toMatchObject({ status: 404, body: scimError(404) });
    expect((await scim('GET', '/users?count=1')).body.itemsPerPage).toBe(1);
  });
});
