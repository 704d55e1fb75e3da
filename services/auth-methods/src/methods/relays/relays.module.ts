import { randomUUID } from 'node:crypto';
import {
  catalogueError,
  createRelay,
  deleteRelay,
  fieldError,
  getRelay,
  listRelays,
  oauthError,
  paginate,
  relaySessionMinutes,
  requestRelay,
  resolvePage,
  subjects,
  updateRelay,
} from '@sesame/contracts';
import type { Environment, Relay, RelayData, TokenRequest, User } from '@sesame/contracts';
import { AggregateView, created, fail, failure, handleCommand, hashSecret, ok, randomSecret } from '@sesame/platform';
import type { RequestContext, ServiceRuntime } from '@sesame/platform';
import type { UserTokens } from '../../core/authorization-codes/user-tokens';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import type { TokenClient, TokenEndpoint } from '../../core/oauth/token-endpoint';
import type { SigningKeys } from '../../core/signing-keys/signing-keys';
import { relayCodeDecider, relayCodeTtlSeconds, relaySessionEnd } from './domain/relay-code.decider';
import type { RelayCodeState } from './domain/relay-code.decider';
import { acceptsSource, linkedTo, mayRelayInto, relayIdentityProvider, sourceOrganizationsOf } from './domain/relay-policy';
import { relayDecider } from './domain/relay.decider';
import type { RelayCommand, RelayState } from './domain/relay.decider';
import { relayCodeStream, relayStream, relaysView } from './projections/relays.projection';
import type { RelaysView } from './projections/relays.projection';
import { verifyUserAccessToken } from './relay-access-token';

export const noPartnerUserMessage = 'names a user who has no account in the partner organization (the relay has no jit)';

export interface RelayDeps {
  identity: IdentityClient;
  organizations: Organizations;
  signingKeys: Pick<SigningKeys, 'jwks'>;
  userTokens: Pick<UserTokens, 'start'>;
  tokenEndpoint: TokenEndpoint;
  issuerOf(organizationDomain: string): string;
}

export const toRelay = (relay: RelayData): Relay => ({
  id: relay.id,
  jit: relay.jit,
  organization: relay.partner_domain,
  partner_domain: relay.partner_domain,
  source_organizations: sourceOrganizationsOf(relay),
  partner_redirect_uri: relay.partner_redirect_uri,
  session_duration_minutes: relay.session_duration_minutes,
});

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Relays (SPEC.md sections 3, 7, 8): CRUD, the relay request and `grant_type=relay`. */
export function registerRelays(runtime: ServiceRuntime, deps: RelayDeps): { view: RelaysView } {
  const view = runtime.projections.register(new AggregateView(relaysView, runtime.readModels, runtime.eventStore));
  const environmentOf = (context: RequestContext): Environment =>
    context.meta.environment ?? fail(catalogueError('unauthorized'));
  const run = (id: string, command: RelayCommand, context: RequestContext) =>
    handleCommand(runtime.commandDeps<RelayState>(), relayDecider, relayStream(id), command, runtime.metadata(context));
  /** The relay `id` of the API key's environment, or null. */
  const relayOf = async (id: string, environment: Environment): Promise<RelayData | null> => {
    const relay = (await view.documents.get(id))?.relay;
    return relay && relay.environment === environment ? relay : null;
  };
  const requireRelay = async (id: string, context: RequestContext) =>
    (await relayOf(id, environmentOf(context))) ?? fail(catalogueError('resource_not_found'));

  /** The source organizations, each once: every one must exist (404 otherwise). */
  const existingSources = async (domains: string[], context: RequestContext): Promise<string[]> => {
    const unique = [...new Set(domains)];
    await Promise.all(unique.map((domain) => deps.organizations.get(domain, context.meta)));
    return unique;
  };

  runtime.router.operation(createRelay, async ({ body }, context) => {
    const environment = environmentOf(context);
    const partner = await deps.organizations.get(body.partner_domain, context.meta);
    const relay: RelayData = {
      id: randomUUID(),
      environment,
      organization_id: partner.id,
      partner_domain: partner.domain,
      source_organizations: await existingSources(body.source_organizations ?? [], context),
      partner_redirect_uri: body.partner_redirect_uri,
      jit: body.jit ?? false,
      session_duration_minutes: body.session_duration_minutes ?? relaySessionMinutes.default,
      inserted_at: new Date().toISOString(),
    };
    const command = {
      type: 'CreateRelay' as const,
      data: { relay, partner_allowed_email_domains: partner.allowed_email_domains },
    };
    const { state } = await run(relay.id, command, context);
    return created(toRelay(state.relay as RelayData));
  });
  runtime.router.operation(listRelays, async ({ query }, context) => {
    const filter = { 'relay.environment': environmentOf(context) };
    const page = resolvePage(query);
    const [documents, total] = await Promise.all([
      view.documents.find(filter, { sort: { 'relay.inserted_at': 1 }, skip: page.skip, limit: page.perPage }),
      view.documents.count(filter),
    ]);
    return ok(
      paginate(
        documents.map((document) => toRelay(document.relay as RelayData)),
        total,
        page,
      ),
    );
  });
  runtime.router.operation(getRelay, async ({ params }, context) => ok(toRelay(await requireRelay(params.relay_id, context))));
  runtime.router.operation(updateRelay, async ({ params, body }, context) => {
    await requireRelay(params.relay_id, context);
    const changes = body.source_organizations
      ? { ...body, source_organizations: await existingSources(body.source_organizations, context) }
      : body;
    const { state } = await run(
      params.relay_id,
      { type: 'UpdateRelay', data: { changes, at: new Date().toISOString() } },
      context,
    );
    return ok(toRelay(state.relay as RelayData));
  });
  runtime.router.operation(deleteRelay, async ({ params }, context) => {
    const relay = await requireRelay(params.relay_id, context);
    await run(params.relay_id, { type: 'DeleteRelay', data: { at: new Date().toISOString() } }, context);
    return ok({ deleted: true, resource: toRelay(relay) });
  });

  /** Records on the partner account that this relay signed `user` into it: the explicit link later relays trust. */
  const recordLink = async (relay: RelayData, user: User, partnerUser: User, context: RequestContext): Promise<User> => {
    const scope = { organization_domain: relay.partner_domain, environment: relay.environment };
    const identity = {
      provider: relayIdentityProvider,
      idp_id: user.id,
      authenticated_at: Math.floor(Date.now() / 1_000),
      data: { organization_domain: user.__domain__, relay_id: relay.id },
    };
    return deps.identity.call(subjects.identity.users.recordIdentity, { ...scope, id: partnerUser.id, identity }, context.meta);
  };

  /**
   * The partner organization's account of `user`: the one with the same email when `mayRelayInto`
   * says so (linked by an earlier relay, or a verified email), or one created when the relay has
   * `jit` and no account has the email; linked to `user` either way (recorded once).
   */
  const partnerUserOf = async (relay: RelayData, user: User, context: RequestContext): Promise<User> => {
    const scope = { organization_domain: relay.partner_domain, environment: relay.environment };
    const { user: found } = await deps.identity.call(
      subjects.identity.users.findByEmail,
      { ...scope, email: user.email },
      context.meta,
    );
    if (!found && !relay.jit) return fail(fieldError('access_token', noPartnerUserMessage));
    const request = { ...scope, email: user.email, email_verified: user.email_verified, source: 'relay' as const };
    // Created just now, or by a concurrent request since the lookup: the rule applies to the latter.
    const { user: account, created: isNew } = found
      ? { user: found, created: false }
      : await deps.identity.call(subjects.identity.users.findOrCreate, request, context.meta);
    if (!isNew && !mayRelayInto(user, account)) return fail(catalogueError('relay_account_not_linked'));
    // Linked once: later relays of the same user change nothing.
    return linkedTo(account, user) ? account : recordLink(relay, user, account, context);
  };

  runtime.router.operation(requestRelay, async ({ params, body }, context) => {
    const environment = environmentOf(context);
    const relay = uuidPattern.test(params.relay_id) ? await relayOf(params.relay_id, environment) : null;
    if (!relay) return failure(catalogueError('missing_relay_id'));
    const token = body.access_token?.trim();
    const relayed = token ? await verifyUserAccessToken(token, environment, deps.signingKeys, deps.issuerOf) : null;
    if (!relayed) return failure(catalogueError('missing_access_token'));
    const { organization_domain, user_id: id } = relayed;
    if (!acceptsSource(relay, organization_domain)) return failure(catalogueError('relay_source_not_allowed'));
    const { user } = await deps.identity.call(
      subjects.identity.users.findById,
      { organization_domain, environment, id },
      context.meta,
    );
    if (!user?.active) return failure(catalogueError('missing_access_token'));
    const partnerUser = await partnerUserOf(relay, user, context);
    const code = randomSecret(32);
    const now = new Date();
    await handleCommand(
      runtime.commandDeps<RelayCodeState>(),
      relayCodeDecider,
      relayCodeStream(code),
      {
        type: 'IssueRelayCode',
        data: {
          code_hash: hashSecret(code),
          relay_id: relay.id,
          environment,
          from_user_id: user.id,
          from_organization_domain: organization_domain,
          partner_domain: relay.partner_domain,
          partner_user_id: partnerUser.id,
          partner_redirect_uri: relay.partner_redirect_uri,
          session_duration_minutes: relay.session_duration_minutes,
          expires_at: new Date(now.getTime() + relayCodeTtlSeconds * 1_000).toISOString(),
          at: now.toISOString(),
        },
      },
      runtime.metadata(context),
      { newStream: true },
    );
    const relayUri = new URL(relay.partner_redirect_uri);
    relayUri.searchParams.set('code', code);
    return created({
      from_user: user.id,
      partner_redirect_uri: relay.partner_redirect_uri,
      relay_id: relay.id,
      relay_uri: relayUri.toString(),
      to_partner_user: partnerUser.id,
    });
  });

  /** `grant_type=relay`: the partner, authenticated with an API key of the relay's environment, exchanges the code. */
  deps.tokenEndpoint.register('relay', async (request: TokenRequest, context: RequestContext, client: TokenClient | null) => {
    if (!client)
      return failure(oauthError('invalid_client', 'Client authentication failed: the relay grant needs client_secret'));
    if (!request.code) return failure(oauthError('invalid_request', 'code is required'));
    const at = new Date();
    const { state } = await handleCommand(
      runtime.commandDeps<RelayCodeState>(),
      relayCodeDecider,
      relayCodeStream(request.code),
      {
        type: 'RedeemRelayCode',
        data: { code_hash: hashSecret(request.code), client, at: at.toISOString() },
      },
      runtime.metadata(context),
    );
    const issued = state.issued as NonNullable<RelayCodeState['issued']>;
    const session = {
      environment: issued.environment,
      organization_domain: issued.partner_domain,
      user_id: issued.partner_user_id,
      method: 'relay' as const,
      client_id: client.client_id,
      scope: 'openid email profile',
      nonce: null,
      authenticated_at: Math.floor(at.getTime() / 1_000),
    };
    const options = { confidential: true, sessionExpiresAt: relaySessionEnd(issued, at) };
    return ok(await deps.userTokens.start(session, runtime.metadata(context), options));
  });
  return { view };
}
