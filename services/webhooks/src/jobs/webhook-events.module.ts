import { randomUUID } from 'node:crypto';
import {
  cancelWebhookEvent,
  catalogueError,
  listWebhookEvents,
  paginate,
  resolvePage,
  retryWebhookEvent,
  triggerTestWebhookEvent,
} from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { created, fail, ok } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { environmentOf } from '../tenancy';
import type { WebhooksView } from '../webhooks/webhooks.deps';
import { toWebhookEvent } from './domain/job.decider';
import type { JobCommand } from './domain/job.decider';
import { fanOut } from './fan-out';
import type { JobIndex } from './job-index';
import type { JobStore } from './job-store';

/** The HTTP operations on delivery jobs: list, trigger a test event, retry, cancel. */
export function registerWebhookEvents(
  runtime: ServiceRuntime,
  deps: { view: WebhooksView; store: JobStore; index: JobIndex; now(): Date },
): void {
  const { store, index } = deps;
  /** Applies a command to a job of the environment; another environment's job is not found. */
  const transition = async (id: number, environment: Environment, command: JobCommand) => {
    const current = await store.get(id);
    if (!current || current.job.environment !== environment) fail(catalogueError('resource_not_found'));
    const result = await store.transition(id, command);
    if (!result) fail(catalogueError('resource_not_found'));
    index.apply(id, result);
    return result.job;
  };

  runtime.router.operation(listWebhookEvents, async ({ query }, context) => {
    const page = resolvePage(query);
    const { jobs, total } = index.page(
      { environment: environmentOf(context.meta), state: query.state, webhook_id: query.webhook_id },
      page.skip,
      page.perPage,
    );
    return ok(
      paginate(
        jobs.map((job) => toWebhookEvent(job)),
        total,
        page,
      ),
    );
  });
  runtime.router.operation(triggerTestWebhookEvent, async ({ body }, context) => {
    const environment = environmentOf(context.meta);
    const jobs = await fanOut(
      {
        id: randomUUID(),
        code: body.event_code,
        data: { test: true },
        domain: null,
        environment,
        issued_at: deps.now().toISOString(),
        client_id: context.meta.clientId ?? null,
        description: 'Test event',
      },
      deps,
      true,
    );
    return created({ data: jobs.map((job) => toWebhookEvent(job)), total: jobs.length });
  });
  runtime.router.operation(retryWebhookEvent, async ({ params }, context) => {
    const job = await transition(params.id, environmentOf(context.meta), {
      type: 'RetryJob',
      data: { now: deps.now().toISOString() },
    });
    return ok(toWebhookEvent(job));
  });
  runtime.router.operation(cancelWebhookEvent, async ({ params }, context) => {
    const job = await transition(params.id, environmentOf(context.meta), {
      type: 'CancelJob',
      data: { now: deps.now().toISOString() },
    });
    return ok(toWebhookEvent(job, 'cancel-answer'));
  });
}
