import {
  createPassword,
  createPasswordChallenge,
  createPasswordConnection,
  createPasswordRequest,
  getPasswordConnection,
  updatePasswordConnection,
} from '@sesame/contracts';
import { shippedMessageTemplates } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { createPasswordChallengeHandler } from './password-challenge.handlers';
import {
  createPasswordConnectionHandler,
  getPasswordConnectionHandler,
  updatePasswordConnectionHandler,
} from './password-connection.handlers';
import { PasswordHasher } from './password-hasher';
import { passwordLists } from './password-lists';
import { createPasswordHandler, createPasswordRequestHandler } from './password-sign-in.handlers';
import type { PasswordDeps, PasswordServices } from './password.deps';

/** Password sign-in: the connection per organization, setting a password, challenges and reset requests. */
export function registerPassword(runtime: ServiceRuntime, services: PasswordServices): PasswordDeps {
  const deps: PasswordDeps = {
    aggregate: (type) => runtime.aggregate(type),
    metadata: (context) => runtime.metadata(context),
    identity: services.identity,
    organizations: services.organizations,
    hasher: new PasswordHasher(services.keyRing),
    lists: passwordLists(),
    breachRange: services.breachRange,
    mailer: services.mailer,
    messages: shippedMessageTemplates(),
    authorizationCodes: services.authorizationCodes,
    now: () => new Date(),
  };
  runtime.router.operation(getPasswordConnection, getPasswordConnectionHandler(deps));
  runtime.router.operation(createPasswordConnection, createPasswordConnectionHandler(deps));
  runtime.router.operation(updatePasswordConnection, updatePasswordConnectionHandler(deps));
  runtime.router.operation(createPassword, createPasswordHandler(deps));
  runtime.router.operation(createPasswordChallenge, createPasswordChallengeHandler(deps));
  runtime.router.operation(createPasswordRequest, createPasswordRequestHandler(deps));
  return deps;
}
