import type { passwordConnectionSchema, z } from '@sesame/contracts';
import type {
  OperationInput,
  PasswordConnectionSettings,
  createPasswordConnection,
  getPasswordConnection,
  updatePasswordConnection,
} from '@sesame/contracts';
import { created, handleCommand, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { passwordConnectionDecider, settingsOf } from './domain/password-connection.decider';
import type { PasswordConnectionCommand } from './domain/password-connection.decider';
import { connectionOf, environmentOf, passwordConnectionStream, rpcMeta } from './password.env';
import type { PasswordEnv } from './password.env';

const toConnection = (settings: PasswordConnectionSettings): z.infer<typeof passwordConnectionSchema> => ({
  active: settings.active,
  pepper_rotation_period: settings.pepper_rotation_period,
  plain_text_min_length: settings.plain_text_min_length,
  plain_text_max_length: settings.plain_text_max_length,
});

/** The organization must exist (404 otherwise); answers the environment of the API key. */
async function scope(env: PasswordEnv, orgDomain: string, context: RequestContext) {
  const environment = environmentOf(context);
  await env.organizations.get(orgDomain, rpcMeta(context, environment));
  return environment;
}

export function getPasswordConnectionHandler(env: PasswordEnv) {
  return async ({ params }: OperationInput<typeof getPasswordConnection>, context: RequestContext) => {
    const environment = await scope(env, params.org_domain, context);
    return ok(toConnection(await connectionOf(env, environment, params.org_domain)));
  };
}

function changeHandler(env: PasswordEnv, type: Exclude<PasswordConnectionCommand['type'], 'DeletePasswordConnection'>) {
  return async (
    { params, body }: OperationInput<typeof createPasswordConnection | typeof updatePasswordConnection>,
    context: RequestContext,
  ) => {
    const environment = await scope(env, params.org_domain, context);
    const { state } = await handleCommand(
      env.commandDeps(),
      passwordConnectionDecider,
      passwordConnectionStream(environment, params.org_domain),
      { type, data: { environment, organization_domain: params.org_domain, settings: body, at: env.now().toISOString() } },
      env.metadata(context),
    );
    return toConnection(settingsOf(state));
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
