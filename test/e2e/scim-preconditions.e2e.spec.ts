import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const errorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Every event a SCIM change can cause: the Sesame user's or group's (identity), the directory's (directory-sync). */
const followedCodes = [
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.deleted',
  'group.created',
  'group.updated',
  'group.members_added',
  'group.members_removed',
  'group.deleted',
  'directory_sync.user.provisioning.success',
  'directory_sync.user.update.success',
  'directory_sync.user.deactivation.success',
  'directory_sync.user.deletion.success',
  'directory_sync.group.creation.success',
  'directory_sync.group.update.success',
  'directory_sync.group.deletion.success',
];

interface Job {
  id: number;
  args: { code: string; data: unknown; __domain__: string };
}

/**
 * RFC 7644 section 3.14: a PUT, PATCH or DELETE whose `If-Match` names another version answers
 * 412 and changes nothing: not the SCIM resource, not the Sesame user or group it provisions, and
 * no webhook tells of a change. Fails on 2288c31, where identity was called before the check.
 */
describe('SCIM If-Match: a stale version changes nothing (all processes, real NATS)', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let webhookId: string;
  /** Each test has an organization and directory of its own, whose jobs it reads. */
  let domain: string;
  let base: string;
  let token: string;
  let organizations = 0;
  const seen = new Set<number>();

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    system = await sharedSystem();
    const webhook = await system.request('POST', '/api/v2/webhooks', {
      body: { name: 'SCIM changes', event_codes: followedCodes, target_url: `${receiver.url}/scim` },
    });
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.id;
  });
  afterAll(async () => {
    // The system is shared: no deliveries to a receiver that is gone.
    if (webhookId) await system.request('DELETE', `/api/v2/webhooks/${webhookId}`);
    await receiver?.stop();
  });
  beforeEach(async () => {
    domain = await createOrganization(system, `Preconditions ${++organizations}`);
    const directory = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, { body: { provider_type: 'okta' } });
    base = new URL(directory.body.scim_base_url).pathname;
    token = directory.body.auth_secret_token.value;
  });

  const scim = (method: string, path: string, body?: unknown, ifMatch?: string) =>
    system.request(method, `${base}${path}`, {
      token,
      headers: { 'content-type': 'application/scim+json', ...(ifMatch ? { 'if-match': ifMatch } : {}) },
      ...(body === undefined ? {} : { body }),
    });
  const jobs = async (): Promise<Job[]> => {
    const { body } = await system.request('GET', `/api/v2/webhook-events?webhook_id=${webhookId}&per_page=100`);
    return (body.data as Job[]).filter((job) => job.args.__domain__ === domain);
  };
  /**
   * The jobs that appear until those of a change made after the refused request are there: the
   * directory-sync one and as many identity ones as expected (each service's events reach the
   * webhooks in their order, so anything the refused request caused is listed by then).
   */
  const jobsUntil = async (expected: string[]): Promise<Job[]> => {
    const fresh = async () => (await jobs()).filter((job) => !seen.has(job.id));
    const fromIdentity = (codes: string[]) => codes.filter((code) => !code.startsWith('directory_sync.')).length;
    await eventually(async () => {
      const codes = (await fresh()).map((job) => job.args.code);
      return codes.some((code) => code.startsWith('directory_sync.')) && fromIdentity(codes) >= fromIdentity(expected);
    });
    const found = await fresh();
    for (const job of found) seen.add(job.id);
    return found;
  };
  const expectOnly = async (expected: string[]) => {
    const found = await jobsUntil(expected);
    expect(found.map((job) => job.args.code).sort()).toEqual([...expected].sort());
    expect(JSON.stringify(found)).not.toContain('Stale');
  };
  const refusal = { schemas: [errorSchema], status: '412', detail: 'The resource version is W/"1", not W/"7"' };

  describe.each([
    [
      'PUT',
      (name: string) => ({ schemas: [userSchema], userName: name, emails: [{ value: name }], name: { givenName: 'Stale' } }),
    ],
    ['PATCH', () => ({ schemas: [patchOp], Operations: [{ op: 'replace', path: 'name.givenName', value: 'Stale' }] })],
    ['DELETE', () => undefined],
  ])('%s /Users/{id}', (method, staleBody) => {
    it('answers 412 and leaves the SCIM user, the Sesame user and the webhooks as they were', async () => {
      const name = `${method.toLowerCase()}@preconditions.example`;
      const created = await scim('POST', '/Users', { schemas: [userSchema], userName: name, emails: [{ value: name }] });
      expect(created.status).toBe(201);
      await expectOnly(['user.created', 'directory_sync.user.provisioning.success']);
      const before = {
        scim: (await scim('GET', `/Users/${created.body.id}`)).body,
        sesame: await system.request('GET', `/api/v2/org/${domain}/users/${name}`),
      };
      expect(before.sesame.status).toBe(200);

      const answer = await scim(method, `/Users/${created.body.id}`, staleBody(name), 'W/"7"');
      expect(answer).toMatchObject({ status: 412 });
      expect(answer.body).toEqual(refusal);
      expect((await scim('GET', `/Users/${created.body.id}`)).body).toEqual(before.scim);
      expect(await system.request('GET', `/api/v2/org/${domain}/users/${name}`)).toMatchObject({
        status: 200,
        body: before.sesame.body,
      });

      // Version 1 is still the current one: the refused request appended nothing.
      const patch = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'name.givenName', value: 'Fresh' }] };
      expect(await scim('PATCH', `/Users/${created.body.id}`, patch, 'W/"1"')).toMatchObject({ status: 204 });
      await expectOnly(['user.updated', 'directory_sync.user.update.success']);
      expect((await system.request('GET', `/api/v2/org/${domain}/users/${name}`)).body.profile.given_name).toBe('Fresh');
    });
  });

  describe.each([
    ['PUT', () => ({ schemas: [groupSchema], displayName: 'Stale' })],
    ['PATCH', () => ({ schemas: [patchOp], Operations: [{ op: 'replace', path: 'displayName', value: 'Stale' }] })],
    ['DELETE', () => undefined],
  ])('%s /Groups/{id}', (method, staleBody) => {
    it('answers 412 and leaves the SCIM group, the Sesame group and the webhooks as they were', async () => {
      const created = await scim('POST', '/Groups', { schemas: [groupSchema], displayName: `Group ${method}` });
      expect(created.status).toBe(201);
      await expectOnly(['group.created', 'directory_sync.group.creation.success']);
      const before = (await scim('GET', `/Groups/${created.body.id}`)).body;

      const answer = await scim(method, `/Groups/${created.body.id}`, staleBody(), 'W/"7"');
      expect(answer).toMatchObject({ status: 412 });
      expect(answer.body).toEqual(refusal);
      expect((await scim('GET', `/Groups/${created.body.id}`)).body).toEqual(before);

      // The Sesame group is still the one the SCIM group provisions: renaming it updates it (a deleted one would be created anew).
      const patch = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'displayName', value: 'Fresh' }] };
      expect(await scim('PATCH', `/Groups/${created.body.id}`, patch, 'W/"1"')).toMatchObject({ status: 204 });
      await expectOnly(['group.updated', 'directory_sync.group.update.success']);
    });
  });
});
