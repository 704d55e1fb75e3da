import type { passwordConnectionSchema, z } from '@sesame/contracts';
import type {
  Environment,
  OperationInput,
  Organization,
  PasswordConnectionSettings,
  createPasswordConnection,
  getPasswordConnection,
  updatePasswordConnection,
} from '@sesame/contracts';
import { created, environmentOf, nameBasedUuid, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { settingsOf } from './domain/password-connection.decider';
import type { PasswordConnectionCommand } from './domain/password-connection.decider';
import { passwordConnectionAggregate } from './password.aggregates';
import { connectionOf, passwordConnectionOf, rpcMeta } from './password.deps';
import type { PasswordDeps } from './password.deps';

/**
 * The id of an organization's password connection in an environment: named, not drawn, since the
 * connection exists with its defaults before anyone creates it (and an update creates it).
 */
export const passwordConnectionId = (environment: Environment, organization: Pick<Organization, 'id'>) =>
  nameBasedUuid('sesame-password-connection', environment, organization.id);

const toConnection = (id: string, settings: PasswordConnectionSettings): z.infer<typeof passwordConnectionSchema> => ({
  id,
  active: settings.active,
  pepper_rotation_period: settings.pepper_rotation_period,
  plain_text_min_length: settings.plain_text_min_length,
  plain_text_max_length: settings.plain_text_max_length,
});

/** The organization must exist (404 otherwise); answers the environment of the API key and the connection's id. */
async function scope(deps: PasswordDeps, orgDomain: string, context: RequestContext) {
  const environment = environmentOf(context.meta);
  const organization = await deps.organizations.get(orgDomain, rpcMeta(context, environment));
  return { environment, organization, id: passwordConnectionId(environment, organization) };
}

export function getPasswordConnectionHandler(deps: PasswordDeps) {
  return async ({ params }: OperationInput<typeof getPasswordConnection>, context: RequestContext) => {
    const { environment, organization, id } = await scope(deps, params.org_domain, context);
    return ok(toConnection(id, await connectionOf(deps, environment, organization)));
  };
}

function changeHandler(deps: PasswordDeps, type: Exclude<PasswordConnectionCommand['type'], 'DeletePasswordConnection'>) {
  return async (
    { params, body }: OperationInput<typeof createPasswordConnection | typeof updatePasswordConnection>,
    context: RequestContext,
  ) => {
    const { environment, organization, id } = await scope(deps, params.org_domain, context);
    // On the stream the connection is on: the organization's, or its domain's for one recorded before (decided on what was read).
    const { key, loaded } = await passwordConnectionOf(deps, environment, organization);
    const command: PasswordConnectionCommand = {
      type,
      data: {
        id,
        organization_id: organization.id,
        environment,
        organization_domain: organization.domain,
        settings: body,
        at: deps.now().toISOString(),
      },
    };
    const { state } = await deps.aggregate(passwordConnectionAggregate).handle(key, command, deps.metadata(context), { loaded });
    return toConnection(id, settingsOf(state));
  };
}

export const createPasswordConnectionHandler = (deps: PasswordDeps) => {
  const change = changeHandler(deps, 'CreatePasswordConnection');
  return async (input: OperationInput<typeof createPasswordConnection>, context: RequestContext) =>
    created(await change(input, context));
};

export const updatePasswordConnectionHandler = (deps: PasswordDeps) => {
  const change = changeHandler(deps, 'UpdatePasswordConnection');
  return async (input: OperationInput<typeof updatePasswordConnection>, context: RequestContext) =>
    ok(await change(input, context));
};
