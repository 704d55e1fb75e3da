import { catalogueError, fieldError, subjects } from '@sesame/contracts';
import type { OperationInput, createSsoSamlLogout, ssoSamlLogoutRedirect } from '@sesame/contracts';
import { actingFor, created, environmentOf, failure } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { spBaseUrl, spIdOf } from '../domain/sp-values';
import { errorPage, redirectTo, withQuery } from './browser-replies';
import type { PageNotice } from './error-page-texts';
import { entitiesOf, parseLogoutMessage, refusalOf } from './logout-messages';
import type { ParsedLogoutMessage } from './logout-messages';
import { logoutIdOf, requestIdOfLogout } from './single-logout.deps';
import type { Binding, SamlMessage, SingleLogoutHandlerDeps } from './single-logout.deps';

const refused = (context: RequestContext, reason: string, detail: string, notice: PageNotice) => {
  context.logger.warn({ reason, detail }, 'SAML logout refused');
  return errorPage(notice, context.meta);
};

/** SP-initiated, started by the API for the user's latest open session. */
export function createLogoutHandler(deps: SingleLogoutHandlerDeps) {
  return async ({ body }: OperationInput<typeof createSsoSamlLogout>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const check = await deps.identity.call(
      subjects.identity.redirectUris.check,
      { environment, url: body.redirect_uri },
      { correlationId: context.meta.correlationId },
    );
    if (!check.registered) return failure(fieldError('redirect_uri', 'is not a registered redirect URI'));
    const connection = await deps.findConnection(spIdOf(body.org_domain, environment));
    if (!connection?.idp) return failure(catalogueError('resource_not_found'));
    if (!connection.idp.slo_url) return failure(fieldError('org_domain', 'has an identity provider without single logout'));
    const [session] = await deps.signIns.documents.find(
      { sp_id: connection.sp_id, 'subject.email': body.user_email.toLowerCase(), ended_at: null },
      { sort: { completed_at: -1 }, limit: 1 },
    );
    if (!session || session.status !== 'completed') return failure(fieldError('user_email', 'has no open SSO session'));
    await deps.challenges.handle(
      session.request_id,
      { type: 'RequestSsoLogout', data: { redirect_uri: body.redirect_uri, at: deps.now().toISOString() } },
      deps.runtime.metadata(context),
    );
    return created({
      request_id: session.request_id,
      logout_url: `${spBaseUrl(deps.publicUrl, connection.sp_id)}/logout?request_id=${session.request_id}`,
      redirect_uri: body.redirect_uri,
    });
  };
}

/** The browser sent to the IdP with our signed LogoutRequest. */
export function logoutRedirectHandler(deps: SingleLogoutHandlerDeps) {
  return async ({ params, query }: OperationInput<typeof ssoSamlLogoutRedirect>, context: RequestContext) => {
    const { state } = await deps.challenges.load(query.request_id);
    const connection = await deps.findConnection(params.sp_id);
    if (state.status !== 'completed' || state.sp_id !== params.sp_id || !state.logout_redirect_uri || state.ended_at)
      return refused(context, 'unknown_logout', query.request_id, 'unknown_logout');
    if (!connection?.idp?.slo_url) return refused(context, 'connection_unavailable', params.sp_id, 'slo_unavailable');
    const { sp, idp } = entitiesOf(deps, connection, logoutIdOf(query.request_id));
    const request = sp.createLogoutRequest(
      idp,
      'redirect',
      { logoutNameID: state.subject.name_id, sessionIndex: state.subject.session_index ?? undefined },
      { relayState: query.request_id },
    ) as { context: string };
    return redirectTo(request.context);
  };
}

/** A logout message verified at the SLO endpoint, with the connection it came for. */
interface Received {
  spId: string;
  connection: PresentSsoConnection;
  idp: NonNullable<PresentSsoConnection['idp']>;
  parsed: ParsedLogoutMessage;
  message: SamlMessage;
}

/** The SLO endpoint, in one binding: a LogoutRequest of the IdP, or its LogoutResponse to ours, once verified. */
export function sloHandler(deps: SingleLogoutHandlerDeps, binding: Binding) {
  return async (spId: string, message: SamlMessage, context: RequestContext) => {
    const kind = message.SAMLRequest ? 'request' : 'response';
    const connection = await deps.findConnection(spId);
    if (!connection?.idp) return refused(context, 'connection_unavailable', spId, 'slo_unavailable');
    let parsed: ParsedLogoutMessage;
    try {
      parsed = await parseLogoutMessage(deps, kind, connection, binding, message, context.meta.rawQuery);
    } catch (error) {
      const notice = kind === 'request' ? 'logout_request_refused' : 'logout_response_refused';
      return refused(context, refusalOf(error), (error as Error).message, notice);
    }
    const received = { spId, connection, idp: connection.idp, parsed, message };
    // A message the connection's IdP signed: the connection is the actor of the sessions it ends.
    const asConnection = actingFor(context, { type: 'sso_connection', id: connection.id });
    return kind === 'request' ? logoutRequest(deps, received, asConnection) : logoutResponse(deps, received, asConnection);
  };
}

/** IdP-initiated: end the sessions of that NameID, answer the IdP with our LogoutResponse. */
async function logoutRequest(deps: SingleLogoutHandlerDeps, received: Received, context: RequestContext) {
  const { spId, connection, parsed, message } = received;
  const filter: Record<string, unknown> = { sp_id: spId, 'subject.name_id': parsed.extract.nameID, ended_at: null };
  if (parsed.extract.sessionIndex) filter['subject.session_index'] = parsed.extract.sessionIndex;
  const sessions = await deps.signIns.documents.find(filter);
  const at = deps.now().toISOString();
  const metadata = { ...deps.runtime.metadata(context), environment: connection.environment };
  for (const session of sessions)
    if (session.status === 'completed')
      await deps.challenges.handle(session.request_id, { type: 'EndSsoSession', data: { initiated_by: 'idp', at } }, metadata);
  context.logger.info({ sp_id: spId, sessions: sessions.length }, 'SAML sessions ended by the identity provider');
  if (!received.idp.slo_url) return errorPage('signed_out', context.meta, 200);
  const { sp, idp } = entitiesOf(deps, connection);
  const response = sp.createLogoutResponse(idp, parsed.parsed as never, 'redirect', {
    relayState: message.RelayState ?? '',
  }) as { context: string };
  return redirectTo(response.context);
}

/** SP-initiated, back from the IdP: the session ends, the browser goes to the logout's redirect URI. */
async function logoutResponse(deps: SingleLogoutHandlerDeps, received: Received, context: RequestContext) {
  const { spId, connection, parsed } = received;
  const inResponseTo = parsed.extract.response?.inResponseTo;
  const requestId = requestIdOfLogout(inResponseTo ?? '');
  const state = requestId ? (await deps.challenges.load(requestId)).state : null;
  if (!requestId || state?.status !== 'completed' || state.sp_id !== spId || !state.logout_redirect_uri)
    return refused(context, 'unknown_in_response_to', inResponseTo ?? 'missing', 'logout_unknown_response');
  await deps.challenges.handle(
    requestId,
    { type: 'EndSsoSession', data: { initiated_by: 'sp', at: deps.now().toISOString() } },
    { ...deps.runtime.metadata(context), environment: connection.environment },
  );
  return redirectTo(withQuery(state.logout_redirect_uri, { request_id: requestId, logout: 'success' }));
}
