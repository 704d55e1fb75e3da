import { randomUUID } from 'node:crypto';
import { catalogueError, fieldError } from '@sesame/contracts';
import type {
  Tenant,
  Environment,
  MagicLinkConnection,
  OperationInput,
  Organization,
  createMagicLinkConnection,
  getMagicLinkConnection,
  updateMagicLinkConnection,
} from '@sesame/contracts';
import { created, environmentOf, fail, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import type { MagicLinkConnectionCommand } from './domain/magic-link-connection.decider';
import { magicLinkConnectionAggregate } from './magic-link.aggregates';
import type { MagicLinkDeps } from './magic-link.deps';
import { magicLinkConnectionKey } from './projections/magic-link-connections.projection';

export const tenantOf = (organization: Organization, environment: Environment): Tenant => ({
  organization_id: organization.id,
  organization_domain: organization.domain,
  environment,
});

const scopeOf = async (deps: MagicLinkDeps, domain: string, context: RequestContext) =>
  tenantOf(await deps.organizations.get(domain, context.meta), environmentOf(context.meta));

export const connectionOf = async (deps: MagicLinkDeps, tenant: Tenant): Promise<MagicLinkConnection | null> =>
  (await deps.view.documents.get(magicLinkConnectionKey(tenant.environment, tenant.organization_id)))?.connection ?? null;

async function run(deps: MagicLinkDeps, tenant: Tenant, command: MagicLinkConnectionCommand, context: RequestContext) {
  const key = magicLinkConnectionKey(tenant.environment, tenant.organization_id);
  const aggregate = deps.runtime.aggregate(magicLinkConnectionAggregate);
  const { state } = await aggregate.handle(key, command, deps.runtime.metadata(context));
  return state.connection as MagicLinkConnection;
}

/** A named template must exist in the template directory and use only known placeholders (422 otherwise). */
async function checkTemplate(deps: MagicLinkDeps, templateId: string | null | undefined) {
  const problem = templateId ? await deps.templates.problemWith(templateId) : null;
  if (problem) fail(fieldError('sign_in_template_id', problem));
}

export function getMagicLinkConnectionHandler(deps: MagicLinkDeps) {
  return async ({ params }: OperationInput<typeof getMagicLinkConnection>, context: RequestContext) => {
    const connection = await connectionOf(deps, await scopeOf(deps, params.org_domain, context));
    return connection ? ok(connection) : fail(catalogueError('resource_not_found'));
  };
}

export function createMagicLinkConnectionHandler(deps: MagicLinkDeps) {
  return async ({ params, body }: OperationInput<typeof createMagicLinkConnection>, context: RequestContext) => {
    const tenant = await scopeOf(deps, params.org_domain, context);
    await checkTemplate(deps, body.sign_in_template_id);
    const at = deps.now().toISOString();
    const command: MagicLinkConnectionCommand = {
      type: 'CreateMagicLinkConnection',
      data: { tenant, id: randomUUID(), fields: body, at },
    };
    return created(await run(deps, tenant, command, context));
  };
}

export function updateMagicLinkConnectionHandler(deps: MagicLinkDeps) {
  return async ({ params, body }: OperationInput<typeof updateMagicLinkConnection>, context: RequestContext) => {
    const tenant = await scopeOf(deps, params.org_domain, context);
    await checkTemplate(deps, body.sign_in_template_id);
    const at = deps.now().toISOString();
    return ok(await run(deps, tenant, { type: 'UpdateMagicLinkConnection', data: { tenant, changes: body, at } }, context));
  };
}
