import { createSsoSamlLogout, ssoSamlLogoutRedirect, ssoSamlSloGet, ssoSamlSloPost } from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import { ssoSignInsView } from '../projections/sso-sign-ins.projection';
import { installSchemaValidator } from '../saml/schema-validator';
import { ssoChallenges } from './sign-in.deps';
import { createLogoutHandler, logoutRedirectHandler, sloHandler } from './single-logout.handlers';
import type { SingleLogoutDeps, SingleLogoutHandlerDeps } from './single-logout.deps';

/**
 * SAML single logout. SP-initiated: the API starts it for the user's latest open session, the
 * browser carries our signed LogoutRequest to the IdP and its LogoutResponse back to
 * `slo_response_url`. IdP-initiated: the IdP's signed LogoutRequest at `slo_url` ends the
 * sessions of that NameID and is answered with our signed LogoutResponse. Messages go through
 * samlify (signature against the connection's certificates, never KeyInfo) after our own DTD
 * check, then Issuer and InResponseTo are checked here.
 */
export function registerSingleLogout(deps: SingleLogoutDeps): void {
  const { runtime } = deps;
  installSchemaValidator();
  const signIns = runtime.projections.register(new AggregateView(ssoSignInsView, runtime.readModels, runtime.eventStore));
  const handlerDeps: SingleLogoutHandlerDeps = { ...deps, challenges: ssoChallenges(runtime), signIns };
  const redirectBinding = sloHandler(handlerDeps, 'redirect');
  const postBinding = sloHandler(handlerDeps, 'post');
  runtime.router.operation(createSsoSamlLogout, createLogoutHandler(handlerDeps));
  runtime.router.operation(ssoSamlLogoutRedirect, logoutRedirectHandler(handlerDeps));
  runtime.router.operation(ssoSamlSloGet, ({ params, query }, context) => redirectBinding(params.sp_id, query, context));
  runtime.router.operation(ssoSamlSloPost, ({ params, body }, context) => postBinding(params.sp_id, body, context));
}
