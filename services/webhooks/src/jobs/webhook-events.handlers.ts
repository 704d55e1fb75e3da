import { randomUUID } from 'node:crypto';
import { catalogueError, paginate, resolvePage } from '@sesame/contracts';
import type {
  Environment,
  OperationInput,
  cancelWebhookEvent,
  listWebhookEvents,
  retryWebhookEvent,
  triggerTestWebhookEvent,
} from '@sesame/contracts';
import { created, fail, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../tenancy';
import type { WebhooksView } from '../webhooks/webhooks.deps';
import { toWebhookEvent } from './domain/job.decider';
import type { JobCommand } from './domain/job.decider';
import { fanOut } from './fan-out';
import type { PublicEvent } from '../events/event-mapping';
import type { JobIndex } from './job-index';
import type { JobStore } from './job-store';

/** What the delivery jobs' handlers share. */
export interface WebhookEventsDeps {
  view: WebhooksView;
  store: JobStore;
  index: JobIndex;
  now(): Date;
}

/** Applies a command to a job of the environment; another environment's job is not found. */
async function transition(deps: WebhookEventsDeps, id: number, environment: Environment, command: JobCommand) {
  const current = await deps.store.get(id);
  if (!current || current.job.environment !== environment) fail(catalogueError('resource_not_found'));
  const result = await deps.store.transition(id, command);
  if (!result) fail(catalogueError('resource_not_found'));
  deps.index.apply(id, result);
  return result.job;
}

export function listWebhookEventsHandler(deps: Pick<WebhookEventsDeps, 'index'>) {
  return async ({ query }: OperationInput<typeof listWebhookEvents>, context: RequestContext) => {
    const page = resolvePage(query);
    const filter = { environment: environmentOf(context.meta), state: query.state, webhook_id: query.webhook_id };
    const { jobs, total } = deps.index.page(filter, page.skip, page.perPage);
    return ok(
      paginate(
        jobs.map((job) => toWebhookEvent(job)),
        total,
        page,
      ),
    );
  };
}

export function triggerTestWebhookEventHandler(deps: WebhookEventsDeps) {
  return async ({ body }: OperationInput<typeof triggerTestWebhookEvent>, context: RequestContext) => {
    const event: PublicEvent = {
      id: randomUUID(),
      code: body.event_code,
      data: { test: true },
      domain: null,
      environment: environmentOf(context.meta),
      issued_at: deps.now().toISOString(),
      client_id: context.meta.clientId ?? null,
      description: 'Test event',
    };
    const jobs = await fanOut(event, deps, true);
    return created({ data: jobs.map((job) => toWebhookEvent(job)), total: jobs.length });
  };
}

export function retryWebhookEventHandler(deps: WebhookEventsDeps) {
  return async ({ params }: OperationInput<typeof retryWebhookEvent>, context: RequestContext) => {
    const command: JobCommand = { type: 'RetryJob', data: { now: deps.now().toISOString() } };
    return ok(toWebhookEvent(await transition(deps, params.id, environmentOf(context.meta), command)));
  };
}

export function cancelWebhookEventHandler(deps: WebhookEventsDeps) {
  return async ({ params }: OperationInput<typeof cancelWebhookEvent>, context: RequestContext) => {
    const command: JobCommand = { type: 'CancelJob', data: { now: deps.now().toISOString() } };
    return ok(toWebhookEvent(await transition(deps, params.id, environmentOf(context.meta), command), 'cancel-answer'));
  };
}
