import {
  Aggregate,
  AggregateView,
  DomainError,
  MemoryEventStore,
  MemoryReadModelStore,
  ProjectionRunner,
  createLogger,
  readAggregateStream,
} from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { directorySyncConfigSchema } from '../../config';
import type { DirectorySyncsDeps } from '../directory-syncs.deps';
import { directorySyncsView } from '../projections/directory-syncs.projection';
import { directorySyncAggregate } from './directory-sync.aggregate';
import { directorySyncDecider } from '../domain/directory-sync.decider';
import { getDirectorySyncHandler } from '../queries/directory-sync.queries';
import { createDirectorySyncHandler, updateDirectorySyncHandler } from './directory-sync.handlers';

const context: RequestContext = {
  meta: { correlationId: 'c', environment: 'sandbox' },
  logger: createLogger('test', 'silent'),
};
const input = { params: { org_domain: 'acme' }, query: {}, body: { provider_type: 'okta' as const, active: true } };

/** The directory sync handlers on in-memory stores, with an identity that knows `organizations` (domain → id) and records what it is asked. */
function setup(organizations: Record<string, string>) {
  const eventStore = new MemoryEventStore();
  const readModels = new MemoryReadModelStore();
  const projections = new ProjectionRunner(eventStore, readModels, createLogger('directory-sync', 'silent'));
  running.push(projections);
  const asked: string[] = [];
  const deps: DirectorySyncsDeps = {
    directorySyncs: new Aggregate({ eventStore }, directorySyncAggregate),
    view: projections.register(new AggregateView(directorySyncsView, readModels, eventStore)),
    identity: {
      organizationIdOf: async (domain) => {
        asked.push(domain);
        return organizations[domain] ?? null;
      },
    },
    metadata: () => ({ correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' }),
    config: directorySyncConfigSchema.parse({ SESAME_MODE: 'development' }),
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  };
  const update = updateDirectorySyncHandler(deps);
  const get = async () => {
    await projections.start();
    await projections.caughtUp();
    return getDirectorySyncHandler(deps)({ params: { org_domain: 'acme' }, query: {}, body: {} }, context);
  };
  return { deps, asked, eventStore, create: createDirectorySyncHandler(deps), update, get };
}

const running: ProjectionRunner[] = [];
afterEach(async () => {
  for (const projections of running.splice(0)) await projections.stop();
});

const updateInput = { params: { org_domain: 'acme' }, query: {}, body: { active: false, rotate_auth_secret_token: false } };

/** A directory sync as it was recorded under its organization's domain, before they were keyed by organization. */
async function recordLegacy(eventStore: MemoryEventStore, organizationId: string | undefined) {
  const owner = organizationId ? { organization_id: organizationId } : {};
  const directory = { id: 'legacy-1', ...owner, organization_domain: 'acme', environment: 'sandbox' as const };
  const data = { ...directory, provider_type: 'okta' as const, active: true, at: '2025-01-01T00:00:00.000Z' };
  const token = { hash: 'h', hint: 'abcd', provider_key: 'dsk_1' };
  const [event] = directorySyncDecider.decide(
    { type: 'CreateDirectorySync', data: { ...data, token } as never },
    { status: 'none' },
  );
  await eventStore.appendToStream(directorySyncAggregate.stream('sandbox.acme'), [event!], {
    expectedRevision: -1,
    metadata: { correlationId: 'c', occurredAt: data.at },
  });
}

describe('creating a directory sync', () => {
  it('creates the one of an organization identity knows, on the stream of its id', async () => {
    const { create, asked, eventStore } = setup({ acme: 'org-acme' });
    const reply = await create(input, context);
    expect(reply).toMatchObject({ ok: true, status: 201, body: { __domain__: 'acme', provider_type: 'okta', active: true } });
    expect(asked).toEqual(['acme']);
    const [created] = (await readAggregateStream(eventStore, directorySyncAggregate, 'sandbox:org-acme')).events;
    expect(created?.type === 'DirectorySyncCreated' && created.data.directory_sync.organization_id).toBe('org-acme');
    expect(created?.metadata.tenant).toEqual({ organization_id: 'org-acme', environment: 'sandbox' });
  });

  it('refuses a second one of the same organization, and writes nothing', async () => {
    const { create, eventStore } = setup({ acme: 'org-acme' });
    await create(input, context);
    const error = await create(input, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).error).toMatchObject({ code: 'directory_sync_already_exists' });
    expect((await readAggregateStream(eventStore, directorySyncAggregate, 'sandbox:org-acme')).revision).toBe(0);
  });

  it('answers 404 for an organization identity does not know, and creates nothing', async () => {
    const { create, eventStore } = setup({});
    await expect(create(input, context)).rejects.toMatchObject({ error: { code: 'resource_not_found' } });
    expect(await eventStore.headPosition()).toBe(0n);
  });

  it('refuses one for an organization whose directory sync was recorded under its domain', async () => {
    const { create, eventStore } = setup({ acme: 'org-acme' });
    await recordLegacy(eventStore, 'org-acme');
    await expect(create(input, context)).rejects.toMatchObject({ error: { code: 'directory_sync_already_exists' } });
    expect((await readAggregateStream(eventStore, directorySyncAggregate, 'sandbox:org-acme')).revision).toBe(-1);
  });
});

describe('an organization of a domain that an earlier, deleted organization had', () => {
  it('neither sees nor changes the earlier one’s directory sync before its deletion arrives, and creates its own', async () => {
    const { create, update, get, eventStore } = setup({ acme: 'org-new' });
    await recordLegacy(eventStore, 'org-old');
    await expect(get()).rejects.toMatchObject({ error: { code: 'resource_not_found' } });
    await expect(update(updateInput, context)).rejects.toMatchObject({ error: { code: 'resource_not_found' } });
    const reply = await create(input, context);
    expect(reply).toMatchObject({ ok: true, status: 201 });
    expect(reply.ok && (reply.body as { id: string }).id).not.toBe('legacy-1');
    const legacy = await readAggregateStream(eventStore, directorySyncAggregate, 'sandbox.acme');
    expect(legacy.events.map((event) => event.type)).toEqual(['DirectorySyncCreated']);
  });

  it('finds and changes one recorded under its domain that names no organization (recorded before they did)', async () => {
    const { update, get, eventStore } = setup({ acme: 'org-acme' });
    await recordLegacy(eventStore, undefined);
    expect(await get()).toMatchObject({ ok: true, body: { id: 'legacy-1' } });
    expect(await update(updateInput, context)).toMatchObject({ ok: true, body: { id: 'legacy-1', active: false } });
    expect((await readAggregateStream(eventStore, directorySyncAggregate, 'sandbox.acme')).revision).toBe(1);
  });
});
