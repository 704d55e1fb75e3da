import {
  Aggregate,
  AggregateView,
  DomainError,
  MemoryEventStore,
  MemoryReadModelStore,
  createLogger,
  readAggregateStream,
} from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { directorySyncConfigSchema } from '../../config';
import type { DirectorySyncsDeps } from '../directory-syncs.deps';
import { directorySyncsView } from '../projections/directory-syncs.projection';
import { directorySyncAggregate } from './directory-sync.aggregate';
import { createDirectorySyncHandler } from './directory-sync.handlers';

const context: RequestContext = {
  meta: { correlationId: 'c', environment: 'sandbox' },
  logger: createLogger('test', 'silent'),
};
const input = { params: { org_domain: 'acme' }, query: {}, body: { provider_type: 'okta' as const, active: true } };

/** The directory sync handlers on in-memory stores, with an identity that records the organizations it is asked about. */
function setup(organizations: string[]) {
  const eventStore = new MemoryEventStore();
  const asked: string[] = [];
  const deps: DirectorySyncsDeps = {
    directorySyncs: new Aggregate({ eventStore }, directorySyncAggregate),
    view: new AggregateView(directorySyncsView, new MemoryReadModelStore(), eventStore),
    identity: {
      organizationIdOf: async (domain) => {
        asked.push(domain);
        return organizations.includes(domain) ? `org-${domain}` : null;
      },
    },
    metadata: () => ({ correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' }),
    config: directorySyncConfigSchema.parse({ SESAME_MODE: 'development' }),
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  };
  return { deps, asked, eventStore, create: createDirectorySyncHandler(deps) };
}

describe('creating a directory sync', () => {
  it('creates the one of an organization identity knows', async () => {
    const { create, asked, eventStore } = setup(['acme']);
    const reply = await create(input, context);
    expect(reply).toMatchObject({ ok: true, status: 201, body: { __domain__: 'acme', provider_type: 'okta', active: true } });
    expect(asked).toEqual(['acme']);
    const [created] = (await readAggregateStream(eventStore, directorySyncAggregate, 'sandbox.acme')).events;
    expect(created?.type === 'DirectorySyncCreated' && created.data.directory_sync.organization_id).toBe('org-acme');
    expect(created?.metadata.tenant).toEqual({ organization_id: 'org-acme', environment: 'sandbox' });
  });

  it('refuses a second one before asking identity anything', async () => {
    const { create, asked } = setup(['acme']);
    await create(input, context);
    const error = await create(input, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).error).toMatchObject({ code: 'directory_sync_already_exists' });
    expect(asked).toEqual(['acme']);
  });

  it('answers 404 for an organization identity does not know, and creates nothing', async () => {
    const { create, deps } = setup([]);
    await expect(create(input, context)).rejects.toMatchObject({ error: { code: 'resource_not_found' } });
    expect((await deps.directorySyncs.load('sandbox.acme')).revision).toBe(-1);
  });
});
