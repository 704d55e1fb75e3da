import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { subjects } from '@sesame/contracts';
import type { UserEvent } from '@sesame/contracts';
import { createLogger } from '@sesame/platform';
import { RpcClient, subscribeToServiceEvents } from '@sesame/platform/messaging';
import type { RecordedEvent, Subscription } from '@sesame/platform';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually, notFound } from '../support/identity-fixtures';

describe('Organization deletion cascades (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let nc: NatsConnection;
  let rpc: RpcClient;
  let feed: Subscription;
  const seen: RecordedEvent[] = [];
  const userIds: string[] = [];
  let productionUserId: string;
  let groupId: string;
  let productionGroupId: string;
  let org: string;
  const createGroup = async (environment: 'sandbox' | 'production', members: string[]) => {
    const group = await rpc.request<{ id: string }>(subjects.identity.groups.create, {
      meta: { correlationId: randomUUID() },
      input: { organization_domain: org, environment, display_name: 'All', members },
    });
    return (group as { body: { id: string } }).body.id;
  };

  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
    nc = await connect(system.natsOptions());
    rpc = await RpcClient.connect({
      nats: system.natsOptions('test-peer'),
      prefix: system.prefix,
      timeoutMs: 10_000,
    });
    // Another service's view of identity: the durable event feed (as webhooks will consume it).
    feed = subscribeToServiceEvents({
      nc,
      prefix: system.prefix,
      source: 'identity',
      consumer: 'test-webhooks',
      onCommit: async (commit) => void seen.push(...commit.events),
      logger: createLogger('test', 'silent'),
    });
    // One domain, an organization in each environment: deleting the sandbox one leaves production's.
    org = await createOrganization(system, 'Doomed Org');
    expect(await createOrganization(system, 'Doomed Org', {}, production)).toBe(org);
    for (const email of ['a@doomed.example', 'b@doomed.example']) {
      const created = await system.request('POST', `/api/v2/org/${org}/users`, { body: { email } });
      expect(created.status).toBe(201);
      userIds.push(created.body.id);
    }
    const kept = await system.request('POST', `/api/v2/org/${org}/users`, {
      key: production,
      body: { email: 'a@doomed.example' },
    });
    expect(kept.status).toBe(201);
    productionUserId = kept.body.id;
    for (const key of [undefined, production])
      expect(
        (
          await system.request('POST', `/api/v2/org/${org}/admins`, {
            body: { email: 'it@doomed.example' },
            ...(key ? { key } : {}),
          })
        ).status,
      ).toBe(201);
    groupId = await createGroup('sandbox', userIds);
    productionGroupId = await createGroup('production', [productionUserId]);
  });
  afterAll(async () => {
    await feed?.stop();
    await rpc?.close();
    await nc?.close();
    await system?.stop();
  });

  it('gives other services the user events with the organization, the environment and the user', async () => {
    await eventually(async () => seen.filter((event) => event.type === 'UserCreated').length >= 3);
    const created = seen.find((event) => event.type === 'UserCreated') as RecordedEvent &
      Extract<UserEvent, { type: 'UserCreated' }>;
    expect(created.data).toEqual({
      organization_domain: org,
      organization_id: expect.any(String),
      environment: 'sandbox',
      user: expect.objectContaining({ __type__: 'User', id: userIds[0], email: 'a@doomed.example', __domain__: org }),
      source: 'api',
      profile_owners: {},
      at: expect.any(String),
    });
  });

  it('leaves nothing of the sandbox organization readable through the API once deleted', async () => {
    expect((await system.request('DELETE', `/api/v2/organizations/${org}`)).status).toBe(200);
    for (const path of [
      `/api/v2/org/${org}/users`,
      `/api/v2/org/${org}/users/${userIds[0]}`,
      `/api/v2/org/${org}/users/a@doomed.example`,
      `/api/v2/org/${org}/admins`,
      `/api/v2/org/${org}/admins/it@doomed.example`,
    ])
      expect([path, await system.request('GET', path)]).toEqual([path, expect.objectContaining({ status: 404, body: notFound })]);
    const group = await rpc.request(subjects.identity.groups.get, {
      meta: { correlationId: randomUUID() },
      input: { organization_domain: org, environment: 'sandbox', id: groupId },
    });
    expect(group).toEqual({ ok: false, error: { kind: 'error', code: 'resource_not_found' } });
  });

  it('deletes its users, admins and groups, in its own environment only, with events other services react to', async () => {
    await eventually(async () => {
      const deletedUsers = seen
        .filter((event) => event.type === 'UserDeleted')
        .map((event) => (event.data as { user: { id: string } }).user.id);
      return (
        userIds.every((id) => deletedUsers.includes(id)) &&
        seen.some((e) => e.type === 'AdminRemoved') &&
        seen.some((e) => e.type === 'GroupDeleted')
      );
    });
    const deleted = seen.filter((event) => event.type === 'UserDeleted');
    expect(deleted.map((event) => (event.data as { reason: string }).reason)).toEqual([
      'organization_deleted',
      'organization_deleted',
    ]);
    const environments = seen
      .filter((event) => ['UserDeleted', 'AdminRemoved', 'GroupDeleted'].includes(event.type))
      .map((event) => (event.data as { environment: string }).environment);
    expect(new Set(environments)).toEqual(new Set(['sandbox']));
    expect(seen.find((event) => event.type === 'AdminRemoved')?.data).toMatchObject({
      reason: 'organization_deleted',
      admin: { email: 'it@doomed.example' },
    });
    expect(seen.find((event) => event.type === 'GroupDeleted')?.data).toMatchObject({
      reason: 'organization_deleted',
      group: { id: groupId },
    });
  });

  it('leaves the production organization of the same domain and everything it holds untouched', async () => {
    expect(await system.request('GET', `/api/v2/organizations/${org}`, { key: production })).toMatchObject({
      status: 200,
      body: { domain: org, __environment__: 'production', status: { state: 'terminated' } },
    });
    const users = (await system.request('GET', `/api/v2/org/${org}/users`, { key: production })).body;
    expect(users.data.map((user: { id: string }) => user.id)).toEqual([productionUserId]);
    const admins = (await system.request('GET', `/api/v2/org/${org}/admins`, { key: production })).body;
    expect(admins.data.map((admin: { email: string }) => admin.email)).toEqual(['it@doomed.example']);
    const group = await rpc.request(subjects.identity.groups.get, {
      meta: { correlationId: randomUUID() },
      input: { organization_domain: org, environment: 'production', id: productionGroupId },
    });
    expect(group).toMatchObject({ ok: true, body: { group: { id: productionGroupId, members: [productionUserId] } } });
  });

  it('starts afresh when the domain is taken again: no old user comes back and emails are free', async () => {
    expect(await createOrganization(system, 'Doomed Org')).toBe(org);
    expect((await system.request('GET', `/api/v2/org/${org}/users`)).body.total).toBe(0);
    expect((await system.request('GET', `/api/v2/org/${org}/users`, { key: production })).body.total).toBe(1);
    expect((await system.request('GET', `/api/v2/org/${org}/admins`)).body.total).toBe(0);
    const again = await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: 'a@doomed.example' } });
    expect(again.status).toBe(201);
    expect(userIds).not.toContain(again.body.id);
  });

  it('keeps the cascade after a restart: nothing of the deleted organization reappears', async () => {
    await system.restart();
    expect((await system.request('GET', `/api/v2/org/${org}/users`)).body.total).toBe(1);
    expect(await system.request('GET', `/api/v2/org/${org}/users/${userIds[0]}`)).toMatchObject({ status: 404 });
  });
});
