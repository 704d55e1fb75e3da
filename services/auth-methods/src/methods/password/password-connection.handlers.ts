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
import { created, handleCommand, nameBasedUuid, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { passwordConnectionDecider, settingsOf } from './domain/password-connection.decider';
import type { PasswordConnectionCommand } from './domain/password-connection.decider';
import { connectionOf, environmentOf, passwordConnectionStream, rpcMeta } from './password.env';
import type { PasswordEnv } from './password.env';

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
async function scope(env: PasswordEnv, orgDomain: string, context: RequestContext) {
  const environment = environmentOf(context);
  const organization = await env.organizations.get(orgDomain, rpcMeta(context, environment));
  return { environment, id: passwordConnectionId(environment, organization) };
}

export function getPasswordConnectionHandler(env: PasswordEnv) {
  return async ({ params }: OperationInput<typeof getPasswordConnection>, context: RequestContext) => {
    const { environment, id } = await scope(env, params.org_domain, context);
    return ok(toConnection(id, await connectionOf(env, environment, params.org_domain)));
  };
}

function changeHandler(env: PasswordEnv, type: Exclude<PasswordConnectionCommand['type'], 'DeletePasswordConnection'>) {
  return async (
    { params, body }: OperationInput<typeof createPasswordConnection | typeof updatePasswordConnection>,
    context: RequestContext,
  ) => {
    const { environment, id } = await scope(env, params.org_domain, context);
    const { state } = await handleCommand(
      env.commandDeps(),
      passwordConnectionDecider,
      passwordConnectionStream(environment, params.org_domain),
      { type, data: { id, environment, organization_domain: params.org_domain, settings: body, at: env.now().toISOString() } },
      env.metadata(context),
    );
    return toConnection(id, settingsOf(state));
  };
}

export const createPasswordConnectionHandler = (env: PasswordEnv) => {
  const change = changeHandler(env, 'CreatePasswordConnection');
  return async (input: OperationInput<typeof createPasswordConnection>, context: RequestContext) =>
    created(await change(input, context));
};

export const updatePasswordConnectionHandler = (env: PasswordEnv) => {
  const change = changeHandler(env, 'UpdatePasswordConnection');
  return async (input: OperationInput<typeof updatePasswordConnection>, context: RequestContext) =>
    ok(await change(input, context));
};
