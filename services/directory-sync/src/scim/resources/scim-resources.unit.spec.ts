import { refusedField, subjects } from '@sesame/contracts';
import type { DirectorySyncData, RpcCallInput, RpcCallOutput, RpcSubject, ScimResourceKind } from '@sesame/contracts';
import {
  DomainError,
  MemoryEventStore,
  RpcRefusal,
  MemoryReadModelStore,
  ProjectionRunner,
  createLogger,
} from '@sesame/platform';
import type { CommandHandlerDeps } from '@sesame/platform';
import { defaultAttributesMapping } from '../../attributes-mapping/domain/default-mapping';
import type { IdentityCalls } from '../../identity-client';
import { GroupProvisioning } from './group-provisioning';
import { provisioningRules } from './provisioning-rules';
import { ScimResourceStore } from './scim-resource-store';
import type { ScimStoreRuntime } from './scim-resource-store';
import { ScimResources } from './scim-resources';
import type { ScimRequest } from './scim-resources';
import { UserProvisioning } from './user-provisioning';
import { scimResourceStream } from './projections/scim-resources.projection';

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Identity as directory-sync sees it: users and groups, every write it was asked for, a gate to hold a call. */
class FakeIdentity implements IdentityCalls {
  readonly writes: string[] = [];
  readonly users = new Map<string, { id: string; email: string; active: boolean; profile: unknown }>();
  readonly groups = new Map<string, { id: string; display_name: string; members: string[] }>();
  gate: Promise<void> = Promise.resolve();
  refuse: RpcRefusal | null = null;
  private next = 0;

  async call<S extends RpcSubject>(subject: S, input: RpcCallInput<S>): Promise<RpcCallOutput<S>> {
    const answer: unknown = await this.answer(subject, input as Record<string, unknown>);
    return answer as RpcCallOutput<S>;
  }

  private async answer(subject: string, input: Record<string, unknown>): Promise<unknown> {
    const { users, groups } = subjects.identity;
    const id = String(input.id);
    if (subject === users.findById) return { user: this.users.get(id) ?? null };
    if (subject === users.findByEmail) return { user: [...this.users.values()].find((u) => u.email === input.email) ?? null };
    if (subject === groups.get) return { group: this.groups.get(id) ?? null };
    this.writes.push(subject);
    await this.gate;
    if (this.refuse) throw this.refuse;
    const fresh = `sesame-${++this.next}`;
    if (subject === users.provision)
      return this.put(this.users, { id: fresh, email: String(input.email), active: true, profile: input.profile });
    if (subject === users.modify) return this.put(this.users, { ...this.users.get(id)!, ...input, id });
    if (subject === users.remove) return void this.users.delete(id);
    if (subject === groups.create)
      return this.put(this.groups, { id: fresh, display_name: String(input.display_name), members: [] });
    if (subject === groups.update)
      return this.put(this.groups, { ...this.groups.get(id)!, display_name: String(input.display_name) });
    if (subject === groups.delete) return void this.groups.delete(id);
    throw new Error(`unexpected ${subject}`);
  }

  private put<T extends { id: string }>(map: Map<string, T>, value: T): T {
    map.set(value.id, value);
    return value;
  }
}

function memoryRuntime(): ScimStoreRuntime {
  const eventStore = new MemoryEventStore();
  const readModels = new MemoryReadModelStore();
  const projections = new ProjectionRunner(eventStore, readModels, createLogger('directory-sync', 'silent'));
  const commandDeps = <State>(): CommandHandlerDeps<State> => ({
    eventStore,
    afterCommit: (stream, result) =>
      projections.applyInline(stream, result.revision, result.state, { position: 0n, events: result.events }),
  });
  return { eventStore, readModels, projections, commandDeps };
}

const directory: DirectorySyncData = {
  id: 'dir-1',
  organization_domain: 'acme',
  environment: 'sandbox',
  active: true,
  provider_type: 'okta',
  token: { hash: 'h', hint: 'h', provider_key: 'k' },
  inserted_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const request = (ifMatch?: string): ScimRequest => ({
  directory,
  baseUrl: 'https://sesame.test/scim/v2/dir-1',
  ...(ifMatch === undefined ? {} : { ifMatch }),
  metadata: { correlationId: 'c', environment: 'sandbox', occurredAt: new Date().toISOString() },
});

function setup() {
  const runtime = memoryRuntime();
  const identity = new FakeIdentity();
  const store = new ScimResourceStore(runtime);
  const users = new UserProvisioning(identity, async () => defaultAttributesMapping);
  const resources = new ScimResources(store, provisioningRules(store, users, new GroupProvisioning(identity)));
  const revisionOf = async (id: string) => (await runtime.eventStore.readStream(scimResourceStream(id))).revision;
  return { runtime, identity, store, resources, revisionOf };
}

const ada = {
  schemas: [userSchema],
  userName: 'ada@acme.test',
  emails: [{ value: 'ada@acme.test' }],
  name: { givenName: 'Ada' },
};
const engines = { schemas: [groupSchema], displayName: 'Engines' };
const body: Record<ScimResourceKind, Record<string, unknown>> = { User: ada, Group: engines };
/** A change of each kind of resource, as PUT and PATCH send it. */
const changes: Record<ScimResourceKind, { replace: Record<string, unknown>; patch: Record<string, unknown> }> = {
  User: {
    replace: { ...ada, userName: 'countess@acme.test', name: { givenName: 'Augusta' } },
    patch: { schemas: [patchOp], Operations: [{ op: 'replace', path: 'name.givenName', value: 'Augusta' }] },
  },
  Group: {
    replace: { ...engines, displayName: 'Analytical' },
    patch: { schemas: [patchOp], Operations: [{ op: 'replace', path: 'displayName', value: 'Analytical' }] },
  },
};
const stale = { kind: 'scim', status: 412, detail: 'The resource version is W/"1", not W/"7"' };

describe('SCIM changes with a stale If-Match are refused before anything happens', () => {
  for (const kind of ['User', 'Group'] as const)
    describe(kind, () => {
      const operations = {
        replace: (s: ReturnType<typeof setup>, id: string, ifMatch: string) =>
          s.resources.replace(kind, id, changes[kind].replace, request(ifMatch)),
        patch: (s: ReturnType<typeof setup>, id: string, ifMatch: string) =>
          s.resources.patch(kind, id, changes[kind].patch, request(ifMatch)),
        delete: (s: ReturnType<typeof setup>, id: string, ifMatch: string) => s.resources.delete(kind, id, request(ifMatch)),
      };
      for (const [name, operation] of Object.entries(operations)) {
        it(`${name}: 412, no call to identity, no event, no userName taken; the current version goes through`, async () => {
          const s = setup();
          const created = await s.resources.create(kind, body[kind], request());
          const writes = s.identity.writes.length;
          const before = { users: [...s.identity.users.values()], groups: [...s.identity.groups.values()] };
          const error = await operation(s, created.id, 'W/"7"').catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).error).toEqual(stale);
          expect(s.identity.writes).toHaveLength(writes);
          expect({ users: [...s.identity.users.values()], groups: [...s.identity.groups.values()] }).toEqual(before);
          expect(await s.revisionOf(created.id)).toBe(0);
          expect(await s.store.findByUserName(directory, 'countess@acme.test')).toBeNull();
          await operation(s, created.id, 'W/"1"');
          expect(s.identity.writes.length).toBeGreaterThan(writes);
          expect(await s.revisionOf(created.id)).toBe(1);
        });
      }
    });

  it('two changes expecting the same version: one provisions and commits, the other is refused without calling identity', async () => {
    const s = setup();
    const created = await s.resources.create('User', ada, request());
    let open!: () => void;
    s.identity.gate = new Promise((resolve) => (open = resolve));
    const first = s.resources.patch('User', created.id, changes.User.patch, request('W/"1"'));
    while (s.identity.writes.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = s.resources.replace('User', created.id, changes.User.replace, request('W/"1"'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    const [patched, replaced] = await Promise.allSettled([first, second]);
    expect(patched).toMatchObject({ status: 'fulfilled', value: { version: 2 } });
    expect(replaced).toMatchObject({ status: 'rejected', reason: { error: { kind: 'scim', status: 412 } } });
    expect(s.identity.writes).toEqual([subjects.identity.users.provision, subjects.identity.users.modify]);
    expect(await s.store.findByUserName(directory, 'countess@acme.test')).toBeNull();
  });

  it('identity refusing a change: nothing appended, the new userName given back', async () => {
    const s = setup();
    const created = await s.resources.create('User', ada, request());
    s.identity.refuse = new RpcRefusal(refusedField('email', 'taken'));
    await expect(s.resources.replace('User', created.id, changes.User.replace, request())).rejects.toMatchObject({
      error: { kind: 'scim', status: 409, scimType: 'uniqueness' },
    });
    expect(await s.revisionOf(created.id)).toBe(0);
    s.identity.refuse = null;
    const other = await s.resources.create('User', { ...ada, userName: 'countess@acme.test', emails: [] }, request());
    expect(other.resource.userName).toBe('countess@acme.test');
  });
});
