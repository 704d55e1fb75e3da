import { inflateRawSync } from 'node:zlib';
import {
  catalogueError,
  createSsoSamlLogout,
  fieldError,
  ssoSamlLogoutRedirect,
  ssoSamlSloGet,
  ssoSamlSloPost,
  subjects,
} from '@sesame/contracts';
import { AggregateView, created, fail, failure, fold, handleCommand } from '@sesame/platform';
import type { EventMetadata, KeyRing, RequestContext, ServiceRuntime } from '@sesame/platform';
import type { IdentityClient } from '../../../core/identity/identity-client';
import { ssoChallengeDecider } from '../domain/sso-challenge.decider';
import type { SsoChallengeCommand, SsoChallengeState } from '../domain/sso-challenge.decider';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { spBaseUrl, spIdOf } from '../domain/sp-values';
import { ssoSignInsView } from '../projections/sso-sign-ins.projection';
import { identityProviderOf } from '../saml/identity-provider';
import { installSchemaValidator } from '../saml/schema-validator';
import { serviceProviderOf } from '../saml/service-provider';
import { parseUntrustedXml, UnsafeXmlError } from '../xml/safe-xml';
import { errorPage, redirectTo, withQuery } from './browser-replies';
import type { PageNotice } from './error-page-texts';
import { ssoChallengeStream } from './sign-in.deps';

export interface SingleLogoutDeps {
  runtime: ServiceRuntime;
  identity: IdentityClient;
  keyRing: KeyRing;
  publicUrl: string;
  findConnection(spId: string): Promise<PresentSsoConnection | null>;
}

type Binding = 'redirect' | 'post';
type SamlMessage = Record<string, string | undefined> & {
  SAMLRequest?: string;
  SAMLResponse?: string;
  RelayState?: string;
};

const logoutIdOf = (requestId: string) => `_logout_${requestId}`;
const requestIdOfLogout = (id: string) => /^_logout_([0-9a-f-]{36})$/.exec(id)?.[1] ?? null;

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
  const run = (requestId: string, command: SsoChallengeCommand, metadata: EventMetadata) =>
    handleCommand(
      runtime.commandDeps<SsoChallengeState>(),
      ssoChallengeDecider,
      ssoChallengeStream(requestId),
      command,
      metadata,
    );
  const load = async (requestId: string) =>
    fold(ssoChallengeDecider, (await runtime.eventStore.readStream(ssoChallengeStream(requestId))).events as never);
  const entities = (connection: PresentSsoConnection, messageId?: string) => ({
    sp: serviceProviderOf(connection, deps.publicUrl, {
      privateKeyPem: deps.keyRing.open(connection.sp_key.encrypted_private_key_pem),
      messageId: messageId ?? `_${crypto.randomUUID()}`,
    }),
    idp: identityProviderOf(connection.idp as NonNullable<PresentSsoConnection['idp']>),
  });
  const refused = (context: RequestContext, reason: string, detail: string, notice: PageNotice) => {
    context.logger.warn({ reason, detail }, 'SAML logout refused');
    return errorPage(notice, context.meta);
  };

  runtime.router.operation(createSsoSamlLogout, async ({ body }, context) => {
    const environment = context.meta.environment ?? fail(catalogueError('unauthorized'));
    const check = await deps.identity.call(
      subjects.identity.redirectUris.check,
      { environment, url: body.redirect_uri },
      { correlationId: context.meta.correlationId },
    );
    if (!check.registered) return failure(fieldError('redirect_uri', 'is not a registered redirect URI'));
    const connection = await deps.findConnection(spIdOf(body.org_domain, environment));
    if (!connection?.idp) return failure(catalogueError('resource_not_found'));
    if (!connection.idp.slo_url) return failure(fieldError('org_domain', 'has an identity provider without single logout'));
    const [session] = await signIns.documents.find(
      { sp_id: connection.sp_id, 'subject.email': body.user_email.toLowerCase(), ended_at: null },
      { sort: { completed_at: -1 }, limit: 1 },
    );
    if (!session || session.status !== 'completed') return failure(fieldError('user_email', 'has no open SSO session'));
    const at = new Date().toISOString();
    await run(
      session.request_id,
      { type: 'RequestSsoLogout', data: { redirect_uri: body.redirect_uri, at } },
      runtime.metadata(context),
    );
    return created({
      request_id: session.request_id,
      logout_url: `${spBaseUrl(deps.publicUrl, connection.sp_id)}/logout?request_id=${session.request_id}`,
      redirect_uri: body.redirect_uri,
    });
  });

  runtime.router.operation(ssoSamlLogoutRedirect, async ({ params, query }, context) => {
    const state = await load(query.request_id);
    const connection = await deps.findConnection(params.sp_id);
    if (state.status !== 'completed' || state.sp_id !== params.sp_id || !state.logout_redirect_uri || state.ended_at)
      return refused(context, 'unknown_logout', query.request_id, 'unknown_logout');
    if (!connection?.idp?.slo_url) return refused(context, 'connection_unavailable', params.sp_id, 'slo_unavailable');
    const { sp, idp } = entities(connection, logoutIdOf(query.request_id));
    const request = sp.createLogoutRequest(
      idp,
      'redirect',
      { logoutNameID: state.subject.name_id, sessionIndex: state.subject.session_index ?? undefined },
      { relayState: query.request_id },
    ) as { context: string };
    return redirectTo(request.context);
  });

  /** Our DTD rule first (samlify's parser must never see a DOCTYPE), then samlify's parse and signature check. */
  async function parse(
    kind: 'request' | 'response',
    connection: PresentSsoConnection,
    binding: Binding,
    message: SamlMessage,
    rawQuery?: string,
  ) {
    const encoded = (kind === 'request' ? message.SAMLRequest : message.SAMLResponse) as string;
    const raw = Buffer.from(encoded, 'base64');
    parseUntrustedXml((binding === 'redirect' ? inflateRawSync(raw) : raw).toString('utf8'));
    const { sp, idp } = entities(connection);
    const request = binding === 'redirect' ? { query: message, octetString: octetStringOf(rawQuery ?? '') } : { body: message };
    const parsed =
      kind === 'request'
        ? await sp.parseLogoutRequest(idp, binding, request)
        : await sp.parseLogoutResponse(idp, binding, request);
    const extract = parsed.extract as {
      issuer?: string;
      request?: { id?: string };
      response?: { inResponseTo?: string };
      nameID?: string;
      sessionIndex?: string;
    };
    if (extract.issuer !== connection.idp?.entity_id) throw new Error(`Issuer ${extract.issuer ?? 'missing'}`);
    return { parsed, extract };
  }

  /** IdP-initiated: end the sessions of that NameID, answer the IdP with our LogoutResponse. */
  async function logoutRequest(spId: string, binding: Binding, message: SamlMessage, context: RequestContext) {
    const connection = await deps.findConnection(spId);
    if (!connection?.idp) return refused(context, 'connection_unavailable', spId, 'slo_unavailable');
    let parsed;
    try {
      parsed = await parse('request', connection, binding, message, context.meta.rawQuery);
    } catch (error) {
      return refused(context, refusalOf(error), (error as Error).message, 'logout_request_refused');
    }
    const filter: Record<string, unknown> = { sp_id: spId, 'subject.name_id': parsed.extract.nameID, ended_at: null };
    if (parsed.extract.sessionIndex) filter['subject.session_index'] = parsed.extract.sessionIndex;
    const sessions = await signIns.documents.find(filter);
    const at = new Date().toISOString();
    for (const session of sessions)
      if (session.status === 'completed')
        await run(
          session.request_id,
          { type: 'EndSsoSession', data: { initiated_by: 'idp', at } },
          {
            ...runtime.metadata(context),
            environment: connection.environment,
          },
        );
    context.logger.info({ sp_id: spId, sessions: sessions.length }, 'SAML sessions ended by the identity provider');
    if (!connection.idp.slo_url) return errorPage('signed_out', context.meta, 200);
    const { sp, idp } = entities(connection);
    const response = sp.createLogoutResponse(idp, parsed.parsed as never, 'redirect', {
      relayState: message.RelayState ?? '',
    }) as { context: string };
    return redirectTo(response.context);
  }

  /** SP-initiated, back from the IdP: the session ends, the browser goes to the logout's redirect URI. */
  async function logoutResponse(spId: string, binding: Binding, message: SamlMessage, context: RequestContext) {
    const connection = await deps.findConnection(spId);
    if (!connection?.idp) return refused(context, 'connection_unavailable', spId, 'slo_unavailable');
    let parsed;
    try {
      parsed = await parse('response', connection, binding, message, context.meta.rawQuery);
    } catch (error) {
      return refused(context, refusalOf(error), (error as Error).message, 'logout_response_refused');
    }
    const requestId = requestIdOfLogout(parsed.extract.response?.inResponseTo ?? '');
    const state = requestId ? await load(requestId) : null;
    if (!requestId || state?.status !== 'completed' || state.sp_id !== spId || !state.logout_redirect_uri)
      return refused(
        context,
        'unknown_in_response_to',
        parsed.extract.response?.inResponseTo ?? 'missing',
        'logout_unknown_response',
      );
    await run(
      requestId,
      { type: 'EndSsoSession', data: { initiated_by: 'sp', at: new Date().toISOString() } },
      {
        ...runtime.metadata(context),
        environment: connection.environment,
      },
    );
    return redirectTo(withQuery(state.logout_redirect_uri, { request_id: requestId, logout: 'success' }));
  }

  const slo = (spId: string, binding: Binding, message: SamlMessage, context: RequestContext) =>
    message.SAMLRequest ? logoutRequest(spId, binding, message, context) : logoutResponse(spId, binding, message, context);
  runtime.router.operation(ssoSamlSloGet, ({ params, query }, context) => slo(params.sp_id, 'redirect', query, context));
  runtime.router.operation(ssoSamlSloPost, ({ params, body }, context) => slo(params.sp_id, 'post', body, context));
}

/** The signed part of an HTTP-Redirect binding query, in the order and encoding received. */
function octetStringOf(rawQuery: string): string {
  return rawQuery
    .split('&')
    .filter((part) => /^(SAMLRequest|SAMLResponse|RelayState|SigAlg)=/.test(part))
    .join('&');
}

function refusalOf(error: unknown): string {
  if (error instanceof UnsafeXmlError) return error.reason === 'doctype' ? 'doctype' : 'malformed';
  const message = error instanceof Error ? error.message : String(error);
  if (/SIGNATURE|signature/.test(message)) return 'bad_signature';
  if (/^Issuer/.test(message)) return 'wrong_issuer';
  return 'invalid_logout_message';
}
