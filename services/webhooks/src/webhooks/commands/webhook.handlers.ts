import { randomBytes } from 'node:crypto';
import { catalogueError } from '@sesame/contracts';
import type { OperationInput, createWebhook, deleteWebhook, rotateWebhookSignatureKey, updateWebhook } from '@sesame/contracts';
import { created, fail, ok } from '@sesame/platform';
import type { RequestContext, Step } from '@sesame/platform';
import { generateSignatureKey } from '../../delivery/signing';
import { environmentOf } from '../../tenancy';
import type { WebhookCommand, WebhookState } from '../domain/webhook.decider';
import { findOwnWebhook } from '../queries/webhook.queries';
import { toWebhook } from '../webhook.resource';
import type { WebhooksDeps } from '../webhooks.deps';

export function createWebhookHandler(deps: WebhooksDeps) {
  return async ({ body }: OperationInput<typeof createWebhook>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const id = `webhook_${randomBytes(12).toString('hex')}`;
    const key = generateSignatureKey();
    const { active = true, ...settings } = body;
    const target_problem = await deps.targetProblem(body.target_url);
    const { correlationId } = context.meta;
    const { found: organization_found, organization_id } = await deps.organizations.scopeOf(
      body.organization_domain,
      environment,
      correlationId,
    );
    const signature_key = deps.keyRing.seal(key);
    const at = deps.now().toISOString();
    const command: WebhookCommand = {
      type: 'CreateWebhook',
      data: { ...settings, active, id, environment, signature_key, target_problem, organization_found, organization_id, at },
    };
    const { state } = await deps.webhooks.handle(id, command, deps.metadata(context), { newStream: true });
    return created(toWebhook(state, key));
  };
}

/**
 * Updates a webhook: check (a live webhook of the key's environment, on its stream) → look up
 * its new target and organization → commit. An unknown webhook is refused before any lookup.
 */
export function updateWebhookHandler(deps: WebhooksDeps) {
  return async ({ params, body }: OperationInput<typeof updateWebhook>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const step: Step<WebhookState, WebhookCommand, null> = {
      check: ({ state }) => {
        if (state.status !== 'active' || state.environment !== environment) fail(catalogueError('resource_not_found'));
        return null;
      },
      act: async () => {
        const target_problem = body.target_url === undefined ? null : await deps.targetProblem(body.target_url);
        const { correlationId } = context.meta;
        const scope = await deps.organizations.scopeOf(body.organization_domain, environment, correlationId);
        const { found: organization_found, organization_id } = scope;
        return {
          type: 'UpdateWebhook',
          data: { changes: body, target_problem, organization_found, organization_id, at: deps.now().toISOString() },
        };
      },
    };
    const { state } = await deps.webhooks.execute(params.id, step, deps.metadata(context));
    return ok(toWebhook(state));
  };
}

export function deleteWebhookHandler(deps: WebhooksDeps) {
  return async ({ params }: OperationInput<typeof deleteWebhook>, context: RequestContext) => {
    await findOwnWebhook(deps, params.id, environmentOf(context.meta));
    const command: WebhookCommand = { type: 'DeleteWebhook', data: { at: deps.now().toISOString() } };
    const { state } = await deps.webhooks.handle(params.id, command, deps.metadata(context));
    return ok({ deleted: true, resource: toWebhook(state) });
  };
}

export function rotateWebhookSignatureKeyHandler(deps: WebhooksDeps) {
  return async ({ params }: OperationInput<typeof rotateWebhookSignatureKey>, context: RequestContext) => {
    await findOwnWebhook(deps, params.id, environmentOf(context.meta));
    const key = generateSignatureKey();
    const command: WebhookCommand = {
      type: 'RotateSignatureKey',
      data: { signature_key: deps.keyRing.seal(key), overlap_ms: deps.keyOverlapMs, at: deps.now().toISOString() },
    };
    const { state } = await deps.webhooks.handle(params.id, command, deps.metadata(context));
    return ok(toWebhook(state, key));
  };
}
