import { randomBytes } from 'node:crypto';
import {
  catalogueError,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  paginate,
  resolvePage,
  rotateWebhookSignatureKey,
  updateWebhook,
} from '@sesame/contracts';
import type { Environment, Webhook } from '@sesame/contracts';
import { AggregateView, created, fail, handleCommand, ok } from '@sesame/platform';
import type { EventMetadata, KeyRing, RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { generateSignatureKey } from '../delivery/signing';
import { targetUrlProblem } from '../delivery/target-address';
import { environmentOf } from '../tenancy';
import { webhookDecider } from './domain/webhook.decider';
import type { Organizations } from './organizations';
import type { WebhookCommand, WebhookState } from './domain/webhook.decider';
import { webhookStream, webhooksView } from './projections/webhooks.projection';

export type WebhooksView = AggregateView<WebhookState, Parameters<typeof webhookDecider.evolve>[1]>;

export const toWebhook = (state: WebhookState, signatureKey: string | null = null): Webhook => ({
  __type__: 'Webhook',
  __domain__: state.organization_domain ?? null,
  __environment__: state.environment,
  id: state.id,
  name: state.name,
  active: state.active,
  event_codes: state.event_codes,
  target_url: state.target_url,
  organization_domain: state.organization_domain ?? null,
  signature_key: signatureKey,
  inserted_at: state.inserted_at,
  updated_at: state.updated_at,
});

export interface WebhooksOptions {
  keyRing: KeyRing;
  /** How long a previous signature key keeps signing after a rotation. */
  keyOverlapMs: number;
  /** Identity's organizations, to check the organization a webhook is scoped to. */
  organizations: Organizations;
}

/** Webhooks: one event-sourced aggregate per webhook, its read model and the HTTP operations. */
export function registerWebhooks(runtime: ServiceRuntime, options: WebhooksOptions): WebhooksView {
  const view = runtime.projections.register(new AggregateView(webhooksView, runtime.readModels, runtime.eventStore));
  const production = runtime.config.SESAME_MODE === 'production';
  const run = (id: string, command: WebhookCommand, metadata: EventMetadata, newStream = false) =>
    handleCommand(runtime.commandDeps<WebhookState>(), webhookDecider, webhookStream(id), command, metadata, { newStream });
  const at = () => new Date().toISOString();
  const meta = (context: RequestContext) => runtime.metadata(context);
  const organizationFound = (domain: string | null | undefined, environment: Environment, context: RequestContext) =>
    options.organizations.found(domain, environment, context.meta.correlationId);
  const requireOwn = async (id: string, environment: Environment) => {
    const document = await view.documents.get(id);
    if (!document || document.environment !== environment) fail(catalogueError('resource_not_found'));
    return document;
  };

  runtime.router.operation(createWebhook, async ({ body }, context) => {
    const environment = environmentOf(context.meta);
    const id = `webhook_${randomBytes(12).toString('hex')}`;
    const key = generateSignatureKey();
    const { active = true, ...settings } = body;
    const target_problem = await targetUrlProblem(body.target_url, production);
    const organization_found = await organizationFound(body.organization_domain, environment, context);
    const sealed = options.keyRing.seal(key);
    const { state } = await run(
      id,
      {
        type: 'CreateWebhook',
        data: { ...settings, active, id, environment, signature_key: sealed, target_problem, organization_found, at: at() },
      },
      meta(context),
      true,
    );
    return created(toWebhook(state, key));
  });
  runtime.router.operation(listWebhooks, async ({ query }, context) => {
    const { organization_domain } = query;
    const filter = { environment: environmentOf(context.meta), ...(organization_domain ? { organization_domain } : {}) };
    const page = resolvePage(query);
    const [documents, total] = await Promise.all([
      view.documents.find(filter, { sort: { inserted_at: 1, _id: 1 }, skip: page.skip, limit: page.perPage }),
      view.documents.count(filter),
    ]);
    return ok(
      paginate(
        documents.map((document) => toWebhook(document)),
        total,
        page,
      ),
    );
  });
  runtime.router.operation(getWebhook, async ({ params }, context) =>
    ok(toWebhook(await requireOwn(params.id, environmentOf(context.meta)))),
  );
  runtime.router.operation(updateWebhook, async ({ params, body }, context) => {
    const environment = environmentOf(context.meta);
    await requireOwn(params.id, environment);
    const target_problem = body.target_url === undefined ? null : await targetUrlProblem(body.target_url, production);
    const organization_found = await organizationFound(body.organization_domain, environment, context);
    const { state } = await run(
      params.id,
      { type: 'UpdateWebhook', data: { changes: body, target_problem, organization_found, at: at() } },
      meta(context),
    );
    return ok(toWebhook(state));
  });
  runtime.router.operation(deleteWebhook, async ({ params }, context) => {
    await requireOwn(params.id, environmentOf(context.meta));
    const { state } = await run(params.id, { type: 'DeleteWebhook', data: { at: at() } }, meta(context));
    return ok({ deleted: true, resource: toWebhook(state) });
  });
  runtime.router.operation(rotateWebhookSignatureKey, async ({ params }, context) => {
    await requireOwn(params.id, environmentOf(context.meta));
    const key = generateSignatureKey();
    const { state } = await run(
      params.id,
      {
        type: 'RotateSignatureKey',
        data: { signature_key: options.keyRing.seal(key), overlap_ms: options.keyOverlapMs, at: at() },
      },
      meta(context),
    );
    return ok(toWebhook(state, key));
  });
  return view;
}
