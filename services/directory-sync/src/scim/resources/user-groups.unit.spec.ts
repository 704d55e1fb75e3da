import { AggregateView, MemoryEventStore, MemoryReadModelStore } from '@sesame/platform';
import type { RecordedEvent } from '@sesame/platform';
import { scimResourceDecider } from './domain/scim-resource.decider';
import type { ScimResourceCommand, ScimResourceState } from './domain/scim-resource.decider';
import { groupsWithMemberFilter, scimResourceStream, scimResourcesView } from './projections/scim-resources.projection';
import { groupsByMember } from './user-groups';

const baseUrl = 'https://sesame.test/scim/v2/d1';
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
let clock = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();

const members = (...ids: string[]) => ids.map((value) => ({ value }));
const create = (id: string, displayName: string, memberIds: string[]): ScimResourceCommand => ({
  type: 'CreateScimResource',
  data: {
    at: at(),
    scim_resource: {
      kind: 'Group',
      id,
      directory_sync_id: 'd1',
      organization_domain: 'acme',
      environment: 'sandbox',
      provider: 'azure_ad',
      resource: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName, members: members(...memberIds) },
      linked_id: null,
    },
  },
});
/** PATCH and PUT both end as the whole new resource. */
const replace = (displayName: string, memberIds: string[]): ScimResourceCommand => ({
  type: 'ReplaceScimResource',
  data: {
    at: at(),
    linked_id: null,
    resource: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName, members: members(...memberIds) },
  },
});
const remove: () => ScimResourceCommand = () => ({ type: 'DeleteScimResource', data: { at: at() } });
const entry = (id: string, display: string) => ({ value: id, $ref: `${baseUrl}/Groups/${id}`, display, type: 'direct' });

/**
 * Given the commands each group went through (decided, appended and projected into the
 * `scim_resources` view as the service does), when a user's groups are derived from the groups
 * the view finds by member, then they are what the user's `groups` attribute shows.
 */
async function given(histories: Record<string, ScimResourceCommand[]>) {
  const eventStore = new MemoryEventStore();
  const view = new AggregateView(scimResourcesView, new MemoryReadModelStore(), eventStore);
  await view.init();
  for (const [id, commands] of Object.entries(histories)) {
    let state: ScimResourceState = scimResourceDecider.initialState();
    for (const command of commands) {
      const events = scimResourceDecider.decide(command, state);
      if (events.length === 0) continue;
      const { revision } = await eventStore.readStream(scimResourceStream(id));
      const result = await eventStore.appendToStream(scimResourceStream(id), events, {
        expectedRevision: revision === -1 ? 'no_stream' : revision,
        metadata,
      });
      await view.apply({ position: result.position, events: result.events as RecordedEvent[] });
      state = events.reduce(scimResourceDecider.evolve, state);
    }
  }
  const groupsOf = async (userId: string) => {
    const documents = await view.documents.find(groupsWithMemberFilter(userId), { sort: { 'scim_resource.created': 1 } });
    const groups = documents.flatMap((document) => (document.status === 'active' ? [document.scim_resource] : []));
    return groupsByMember(groups, baseUrl).get(userId) ?? [];
  };
  const listing = async () => {
    const documents = await view.documents.find({ 'scim_resource.kind': 'Group' }, { sort: { 'scim_resource.created': 1 } });
    return groupsByMember(
      documents.flatMap((document) => (document.status === 'active' ? [document.scim_resource] : [])),
      baseUrl,
    );
  };
  return { groupsOf, listing };
}

describe("a SCIM user's groups (derived from the groups' members)", () => {
  it('a user no group lists has none', async () => {
    const { groupsOf } = await given({ g1: [create('g1', 'Engineers', ['ada'])] });
    expect(await groupsOf('grace')).toEqual([]);
  });

  it('a created group appears on each of its members, once, oldest group first', async () => {
    const { groupsOf } = await given({
      g1: [create('g1', 'Engineers', ['ada', 'grace', 'ada'])],
      g2: [create('g2', 'Admins', ['ada'])],
    });
    expect(await groupsOf('ada')).toEqual([entry('g1', 'Engineers'), entry('g2', 'Admins')]);
    expect(await groupsOf('grace')).toEqual([entry('g1', 'Engineers')]);
  });

  it('a renamed group shows its new displayName on every member', async () => {
    const { groupsOf } = await given({
      g1: [create('g1', 'Engineers', ['ada', 'grace']), replace('Engineering', ['ada', 'grace'])],
    });
    expect(await groupsOf('ada')).toEqual([entry('g1', 'Engineering')]);
    expect(await groupsOf('grace')).toEqual([entry('g1', 'Engineering')]);
  });

  it('members added and removed gain and lose the group; the others keep it', async () => {
    const { groupsOf } = await given({
      g1: [create('g1', 'Engineers', ['ada', 'grace']), replace('Engineers', ['grace', 'alan']), replace('Engineers', ['alan'])],
    });
    expect(await groupsOf('ada')).toEqual([]);
    expect(await groupsOf('grace')).toEqual([]);
    expect(await groupsOf('alan')).toEqual([entry('g1', 'Engineers')]);
  });

  it('a group emptied of its members, or deleted, is on nobody', async () => {
    const { groupsOf, listing } = await given({
      g1: [create('g1', 'Engineers', ['ada']), remove()],
      g2: [create('g2', 'Admins', ['ada', 'grace']), replace('Admins', [])],
      g3: [create('g3', 'Ops', ['grace'])],
    });
    expect(await groupsOf('ada')).toEqual([]);
    expect(await groupsOf('grace')).toEqual([entry('g3', 'Ops')]);
    expect(await listing()).toEqual(new Map([['grace', [entry('g3', 'Ops')]]]));
  });

  it("a listing maps every member to its groups, as each member's own lookup does", async () => {
    const { groupsOf, listing } = await given({
      g1: [create('g1', 'Engineers', ['ada', 'grace'])],
      g2: [create('g2', 'Admins', ['grace'])],
    });
    const all = await listing();
    expect([...all.keys()]).toEqual(['ada', 'grace']);
    expect(all.get('ada')).toEqual(await groupsOf('ada'));
    expect(all.get('grace')).toEqual(await groupsOf('grace'));
  });
});
