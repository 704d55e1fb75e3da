import { Aggregate, AggregateView, KeyRing, MemoryEventStore, MemoryReadModelStore, createLogger } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { webhooksView } from '../projections/webhooks.projection';
import type { WebhooksDeps } from '../webhooks.deps';
import { webhookAggregate } from './webhook.aggregate';
import { createWebhookHandler, updateWebhookHandler } from './webhook.handlers';

const contextIn = (environment: 'sandbox' | 'production'): RequestContext => ({
  meta: { correlationId: 'c', environment },
  logger: createLogger('test', 'silent'),
});

/** The webhook handlers on in-memory stores; identity and DNS record what they are asked. */
function setup() {
  const eventStore = new MemoryEventStore();
  const asked: string[] = [];
  const deps: WebhooksDeps = {
    webhooks: new Aggregate({ eventStore }, webhookAggregate),
    view: new AggregateView(webhooksView, new MemoryReadModelStore(), eventStore),
    metadata: () => ({ correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' }),
    keyRing: new KeyRing(KeyRing.generateKeySpec('test')),
    keyOverlapMs: 1_000,
    organizations: {
      scopeOf: async (domain) => {
        if (domain) asked.push(`organization ${domain}`);
        return { found: true, organization_id: domain ? `org-${domain}` : null };
      },
    },
    targetProblem: async (url) => {
      asked.push(`target ${url}`);
      return null;
    },
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  };
  return { deps, asked, create: createWebhookHandler(deps), update: updateWebhookHandler(deps) };
}

const body = { name: 'Hook', event_codes: ['user.created'], target_url: 'https://hooks.example/in' };

/** Creates a webhook in the sandbox; answers its id. */
async function createOne(create: ReturnType<typeof setup>['create']): Promise<string> {
  const reply = await create({ params: {}, query: {}, body }, contextIn('sandbox'));
  if (!reply.ok) throw new Error('not created');
  return reply.body.id;
}

const change = { target_url: 'https://hooks.example/new', organization_domain: 'acme' };

describe('updating a webhook', () => {
  it('looks up its new target and organization, then changes it', async () => {
    const { create, update, asked } = setup();
    const id = await createOne(create);
    asked.length = 0;
    const reply = await update({ params: { id }, query: {}, body: change }, contextIn('sandbox'));
    expect(reply).toMatchObject({ status: 200, body: { target_url: change.target_url, organization_domain: 'acme' } });
    expect(asked).toEqual([`target ${change.target_url}`, 'organization acme']);
  });

  it('refuses an unknown webhook, or one of the other environment, with 404 before any lookup', async () => {
    const { create, update, asked, deps } = setup();
    const id = await createOne(create);
    asked.length = 0;
    for (const [target, environment] of [
      ['webhook_unknown', 'sandbox'],
      [id, 'production'],
    ] as const)
      await expect(update({ params: { id: target }, query: {}, body: change }, contextIn(environment))).rejects.toMatchObject({
        error: { code: 'resource_not_found' },
      });
    expect(asked).toEqual([]);
    expect((await deps.webhooks.load(id)).revision).toBe(0);
  });
});
