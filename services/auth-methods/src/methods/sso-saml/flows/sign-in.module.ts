import {
  createSsoSamlChallenge,
  ssoSamlAcs,
  ssoOidcCallback,
  ssoSamlAuthorize,
  subjects,
  testResultRequestSchema,
  testSignInRequestSchema,
} from '@sesame/contracts';
import { acsHandler } from './acs.handlers';
import { oidcCallbackHandler } from './oidc-callback.handlers';
import { authorizeHandler, createChallengeHandler, testResultHandler, testSignInHandler } from './challenge.handlers';
import { ssoChallenges } from './sign-in.deps';
import type { SignInDeps, SignInHandlerDeps } from './sign-in.deps';

/** SP- and IdP-initiated SAML sign-in: the challenge, the redirect to the IdP, the ACS; the OIDC callback; the onboarding page's test sign-in. */
export function registerSamlSignIn(deps: SignInDeps): void {
  const { router } = deps.runtime;
  const handlerDeps: SignInHandlerDeps = { ...deps, challenges: ssoChallenges(deps.runtime) };
  router.operation(createSsoSamlChallenge, createChallengeHandler(handlerDeps));
  router.operation(ssoSamlAuthorize, authorizeHandler(handlerDeps));
  router.operation(ssoSamlAcs, acsHandler(handlerDeps));
  router.operation(ssoOidcCallback, oidcCallbackHandler(handlerDeps));
  router.on(subjects.authMethods.sso.testSignIn, testSignInHandler(handlerDeps), testSignInRequestSchema);
  router.on(subjects.authMethods.sso.testResult, testResultHandler(handlerDeps), testResultRequestSchema);
}
