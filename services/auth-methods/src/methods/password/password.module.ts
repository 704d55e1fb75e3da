import {
  createPassword,
  createPasswordChallenge,
  createPasswordConnection,
  createPasswordRequest,
  getPasswordConnection,
  updatePasswordConnection,
} from '@sesame/contracts';
import { shippedMessageTemplates } from '@sesame/platform';
import type { KeyRing, Mailer, ServiceRuntime } from '@sesame/platform';
import type { AuthorizationCodes } from '../../core/authorization-codes/authorization-codes';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import type { BreachRange } from './breach-range';
import { createPasswordChallengeHandler } from './password-challenge.handler';
import {
  createPasswordConnectionHandler,
  getPasswordConnectionHandler,
  updatePasswordConnectionHandler,
} from './password-connection.handlers';
import { PasswordHasher } from './password-hasher';
import { passwordLists } from './password-lists';
import { createPasswordHandler, createPasswordRequestHandler } from './password-sign-in.handlers';
import type { PasswordEnv } from './password.env';

export interface PasswordDeps {
  identity: IdentityClient;
  organizations: Organizations;
  keyRing: KeyRing;
  mailer: Mailer;
  authorizationCodes: AuthorizationCodes;
  breachRange: BreachRange | null;
}

/** Password sign-in: the connection per organization, setting a password, challenges and reset requests. */
export function registerPassword(runtime: ServiceRuntime, deps: PasswordDeps): PasswordEnv {
  const env: PasswordEnv = {
    commandDeps: () => runtime.commandDeps(),
    eventStore: runtime.eventStore,
    metadata: (context) => runtime.metadata(context),
    identity: deps.identity,
    organizations: deps.organizations,
    hasher: new PasswordHasher(deps.keyRing),
    lists: passwordLists(),
    breachRange: deps.breachRange,
    mailer: deps.mailer,
    messages: shippedMessageTemplates(),
    authorizationCodes: deps.authorizationCodes,
    now: () => new Date(),
  };
  runtime.router.operation(getPasswordConnection, getPasswordConnectionHandler(env));
  runtime.router.operation(createPasswordConnection, createPasswordConnectionHandler(env));
  runtime.router.operation(updatePasswordConnection, updatePasswordConnectionHandler(env));
  runtime.router.operation(createPassword, createPasswordHandler(env));
  runtime.router.operation(createPasswordChallenge, createPasswordChallengeHandler(env));
  runtime.router.operation(createPasswordRequest, createPasswordRequestHandler(env));
  return env;
}
