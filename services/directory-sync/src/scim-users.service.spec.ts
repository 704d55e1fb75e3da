import { catalogueError, subjects } from '@sesame/contracts';
import type { RpcReply, User } from '@sesame/contracts';
import { aUser, anOrganization, serviceSpecification } from '@sesame/platform/testing';
import type { CallTable } from '@sesame/platform/testing';
import { assembleDirectorySync, directorySyncConfigSchema } from './index';

const { users } = subjects.identity;
const scimUsers = subjects.directorySync.scim.users;
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const sesameId = '00000000-0000-4000-8000-00000000000a';
const scope = { organization_domain: 'acme', environment: 'sandbox' };

const ok = (status: number, body: unknown): RpcReply => ({ ok: true, status, body });

/** Identity as the specification declares it: the organization `acme` and the users directory-sync provisions. */
function identityAnswers(known: Map<string, User>): CallTable {
  const put = (user: User) => (known.set(user.id, user), ok(200, user));
  const stored = (id: string) => known.get(id) as User;
  return {
    [subjects.identity.organizations.get]: () => ok(200, anOrganization()),
    [users.findById]: (input) => ok(200, { user: known.get(input.id) ?? null }),
    [users.findByEmail]: (input) => ok(200, { user: [...known.values()].find((user) => user.email === input.email) ?? null }),
    [users.provision]: (input) => put(aUser({ id: sesameId, email: input.email, active: input.active })),
    [users.modify]: (input) =>
      known.has(input.id)
        ? put({ ...stored(input.id), email: input.email ?? stored(input.id).email })
        : { ok: false, error: catalogueError('resource_not_found') },
    [users.deactivate]: (input) => put({ ...stored(input.id), active: false }),
    [users.remove]: (input) => {
      const resource = stored(input.id);
      known.delete(input.id);
      return ok(200, { deleted: true, resource });
    },
  };
}

/** A directory sync of `acme` (sandbox, Okta) with the SCIM user `ada`, both made through the service's handlers. */
async function directoryWithAda() {
  const known = new Map<string, User>();
  const config = directorySyncConfigSchema.parse({ SESAME_PUBLIC_URL: 'https://sesame.test' });
  const spec = await serviceSpecification({
    service: 'directory-sync',
    config,
    assemble: (runtime, rpc) => assembleDirectorySync(runtime, config, rpc, { recordScimActivity: false }),
    calls: identityAnswers(known),
  });
  const sync = await spec.request(
    subjects.directorySync.syncs.create,
    { params: { org_domain: 'acme' }, query: {}, body: { provider_type: 'okta' } },
    { environment: 'sandbox' },
  );
  const directory = (sync.reply as { body: { id: string; auth_secret_token: { value: string } } }).body;
  const scim = { bearerToken: directory.auth_secret_token.value };
  const resource = { schemas: [userSchema], userName: 'ada', emails: [{ value: 'ada@acme.example', primary: true }] };
  const created = await spec.request(
    scimUsers.create,
    { params: { directory_id: directory.id }, query: {}, body: resource },
    { scim },
  );
  const ada = (created.reply as { body: { id: string } }).body;
  const params = { directory_id: directory.id, id: ada.id };
  const location = `https://sesame.test/scim/v2/${directory.id}/Users/${ada.id}`;
  return { spec, scim, params, ada, location, stream: `scimResource-${ada.id}`, directoryId: directory.id, known };
}

/** The event a SCIM change of ada appends: the resource as it now is, and the change for webhooks. */
const scimUserEvent = (type: string, change: string, version: number, newValues: unknown) => ({
  type,
  data: {
    scim_resource: expect.objectContaining({
      kind: 'User',
      organization_domain: 'acme',
      environment: 'sandbox',
      linked_id: sesameId,
      version,
    }),
    event: expect.objectContaining({
      change,
      provider: 'okta',
      resource: expect.objectContaining({ type: 'user', changes: expect.objectContaining({ new_values: newValues }) }),
    }),
  },
});
const revisionClaim = (stream: string, revision: number) => ({
  stream: `claim-${stream}@${revision}`,
  type: 'RevisionClaimed',
  data: { stream, revision, owner: expect.any(String) },
});

describe('SCIM users in the directory-sync service (its router and handlers on in-memory stores, identity answered by a table)', () => {
  it('provisions a Sesame user for a new SCIM user with an email, linking it by the id identity gave', async () => {
    const { ada, location } = await directoryWithAda();
    expect(ada).toMatchObject({ userName: 'ada', meta: { resourceType: 'User', location, version: 'W/"1"' } });
  });

  describe('replace (PUT)', () => {
    it('refuses a stale If-Match with 412 before calling identity: nothing appended, nothing called', async () => {
      const { spec, scim, params } = await directoryWithAda();
      await spec
        .when(
          scimUsers.replace,
          { params, query: {}, body: { schemas: [userSchema], userName: 'ada', active: false } },
          { scim: { ...scim, ifMatch: 'W/"0"' } },
        )
        .then({ reply: { ok: false, error: { kind: 'scim', status: 412, detail: 'The resource version is W/"1", not W/"0"' } } });
    });

    it('replaces the resource at the current version: 200 with the new ETag, the user modified in identity', async () => {
      const { spec, scim, params, stream, location } = await directoryWithAda();
      const body = {
        schemas: [userSchema],
        userName: 'ada',
        emails: [{ value: 'ada@acme.example' }],
        name: { givenName: 'Ada' },
      };
      await spec.when(scimUsers.replace, { params, query: {}, body }, { scim: { ...scim, ifMatch: 'W/"1"' } }).then({
        reply: {
          ok: true,
          status: 200,
          body: {
            ...body,
            id: params.id,
            meta: {
              resourceType: 'User',
              created: expect.any(String),
              lastModified: expect.any(String),
              location,
              version: 'W/"2"',
            },
          },
          headers: { etag: 'W/"2"' },
        },
        events: [
          revisionClaim(stream, 1),
          {
            stream,
            ...scimUserEvent('ScimUserUpdated', 'updated', 2, {
              name: { givenName: 'Ada' },
              emails: [{ value: 'ada@acme.example' }],
            }),
          },
        ],
        calls: [
          {
            subject: users.modify,
            input: {
              ...scope,
              id: sesameId,
              email: 'ada@acme.example',
              profile: { given_name: 'Ada', preferred_username: 'ada' },
            },
          },
        ],
      });
    });

    it('answers 404 in the SCIM shape for an unknown user, calling nobody', async () => {
      const { spec, scim, directoryId } = await directoryWithAda();
      const params = { directory_id: directoryId, id: '00000000-0000-4000-8000-0000000000ff' };
      await spec
        .when(scimUsers.replace, { params, query: {}, body: { schemas: [userSchema], userName: 'bob' } }, { scim })
        .then({ reply: { ok: false, error: { kind: 'scim', status: 404, detail: 'User not found' } } });
    });
  });

  describe('patch', () => {
    it('deactivates on active false: 204 with the ETag, the user modified then deactivated in identity', async () => {
      const { spec, scim, params, stream } = await directoryWithAda();
      const body = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'active', value: false }] };
      await spec.when(scimUsers.patch, { params, query: {}, body }, { scim }).then({
        reply: { ok: true, status: 204, body: null, headers: { etag: 'W/"2"' } },
        events: [
          revisionClaim(stream, 1),
          { stream, ...scimUserEvent('ScimUserDeactivated', 'deactivated', 2, { active: false }) },
        ],
        calls: [
          {
            subject: users.modify,
            input: { ...scope, id: sesameId, email: 'ada@acme.example', profile: { preferred_username: 'ada' } },
          },
          { subject: users.deactivate, input: { ...scope, id: sesameId } },
        ],
      });
    });

    it('provisions the Sesame user again when identity no longer has it: modify refused as not found, then by email', async () => {
      const { spec, scim, params, stream, known } = await directoryWithAda();
      known.clear();
      const body = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'name.givenName', value: 'Ada' }] };
      await spec.when(scimUsers.patch, { params, query: {}, body }, { scim }).then({
        reply: { ok: true, status: 204, body: null, headers: { etag: 'W/"2"' } },
        events: [
          revisionClaim(stream, 1),
          { stream, ...scimUserEvent('ScimUserUpdated', 'updated', 2, { name: { givenName: 'Ada' } }) },
        ],
        calls: [
          {
            subject: users.modify,
            input: {
              ...scope,
              id: sesameId,
              email: 'ada@acme.example',
              profile: { given_name: 'Ada', preferred_username: 'ada' },
            },
          },
          { subject: users.findByEmail, input: { ...scope, email: 'ada@acme.example' } },
          {
            subject: users.provision,
            input: expect.objectContaining({ ...scope, email: 'ada@acme.example', active: true, source: 'scim' }),
          },
        ],
      });
    });

    it('refuses a stale If-Match with 412 before calling identity', async () => {
      const { spec, scim, params } = await directoryWithAda();
      const body = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'active', value: false }] };
      await spec
        .when(scimUsers.patch, { params, query: {}, body }, { scim: { ...scim, ifMatch: 'W/"7"' } })
        .then({ reply: { ok: false, error: { kind: 'scim', status: 412, detail: 'The resource version is W/"1", not W/"7"' } } });
    });
  });

  describe('delete', () => {
    it('deletes the resource and the Sesame user it provisioned: 204, no body', async () => {
      const { spec, scim, params, stream } = await directoryWithAda();
      const outcome = await spec.when(scimUsers.delete, { params, query: {}, body: {} }, { scim }).then({
        reply: { ok: true, status: 204, body: null },
        events: expect.arrayContaining([revisionClaim(stream, 1), expect.objectContaining({ stream, type: 'ScimUserDeleted' })]),
        calls: [
          { subject: users.findById, input: { ...scope, id: sesameId } },
          { subject: users.remove, input: { ...scope, id: sesameId } },
        ],
      });
      expect(outcome.events.map((event) => event.type)).toEqual(['RevisionClaimed', 'ScimUserDeleted', 'UniqueValueReleased']);
    });

    it('answers 404 once deleted, and 401 with a token of no directory, calling nobody', async () => {
      const { spec, scim, params } = await directoryWithAda();
      await spec.request(scimUsers.delete, { params, query: {}, body: {} }, { scim });
      await spec
        .when(scimUsers.delete, { params, query: {}, body: {} }, { scim })
        .then({ reply: { ok: false, error: { kind: 'scim', status: 404, detail: 'User not found' } } });
      await spec.when(scimUsers.delete, { params, query: {}, body: {} }, { scim: { bearerToken: 'scim_wrong' } }).then({
        reply: {
          ok: false,
          error: {
            kind: 'scim',
            status: 401,
            detail: 'Authentication failed: the bearer token is not the one of this directory sync',
          },
        },
      });
    });
  });

  it("puts the directory sync's organization (id and environment) on the envelope of every SCIM resource event and refused provisioning", async () => {
    const { spec, scim, params, stream, directoryId } = await directoryWithAda();
    await spec.request(
      scimUsers.patch,
      { params, query: {}, body: { schemas: [patchOp], Operations: [{ op: 'replace', path: 'active', value: false }] } },
      { scim },
    );
    const again = { schemas: [userSchema], userName: 'ada', emails: [{ value: 'ada@acme.example', primary: true }] };
    const refused = await spec.request(
      scimUsers.create,
      { params: { directory_id: directoryId }, query: {}, body: again },
      { scim },
    );
    await spec.request(scimUsers.delete, { params, query: {}, body: {} }, { scim });
    const tenant = { organization_id: anOrganization().id, environment: 'sandbox' };
    const envelopes = async (name: string) =>
      (await spec.runtime.eventStore.readStream(name)).events.map((event) => [event.type, event.metadata.tenant]);
    expect(await envelopes(stream)).toEqual([
      ['ScimUserProvisioned', tenant],
      ['ScimUserDeactivated', tenant],
      ['ScimUserDeleted', tenant],
    ]);
    const failure = refused.events.find((event) => event.type === 'ScimUserProvisioningFailed');
    expect(await envelopes(failure?.stream as string)).toEqual([['ScimUserProvisioningFailed', tenant]]);
  });
});
