import { catalogueError, fieldError, subjects } from '@sesame/contracts';
import type { OperationInput, RelayData, User, requestRelay } from '@sesame/contracts';
import { created, environmentOf, fail, failure, hashSecret, randomSecret } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { relayCodeTtlSeconds } from './domain/relay-code.decider';
import { acceptsSource, linkedTo, mayRelayInto, relayIdentityProvider } from './domain/relay-policy';
import { verifyUserAccessToken } from './relay-access-token';
import { relayOf } from './relays.deps';
import type { RelayDeps } from './relays.deps';

export const noPartnerUserMessage = 'names a user who has no account in the partner organization (the relay has no jit)';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Records on the partner account that this relay signed `user` into it: the explicit link later relays trust. */
async function recordLink(deps: RelayDeps, relay: RelayData, user: User, partnerUser: User, context: RequestContext) {
  const scope = { organization_domain: relay.partner_domain, environment: relay.environment };
  const identity = {
    provider: relayIdentityProvider,
    idp_id: user.id,
    authenticated_at: Math.floor(deps.now().getTime() / 1_000),
    data: { organization_domain: user.__domain__, relay_id: relay.id },
  };
  return deps.identity.call(subjects.identity.users.recordIdentity, { ...scope, id: partnerUser.id, identity }, context.meta);
}

/**
 * The partner organization's account of `user`: the one with the same email when `mayRelayInto`
 * says so (linked by an earlier relay, or a verified email), or one created when the relay has
 * `jit` and no account has the email; linked to `user` either way (recorded once).
 */
async function partnerUserOf(deps: RelayDeps, relay: RelayData, user: User, context: RequestContext): Promise<User> {
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
  return linkedTo(account, user) ? account : recordLink(deps, relay, user, account, context);
}

/** The one-time code the partner exchanges (`grant_type=relay`), stored as its hash. */
async function issueRelayCode(
  deps: RelayDeps,
  relay: RelayData,
  from: { user: User; organizationDomain: string },
  partnerUser: User,
  context: RequestContext,
) {
  const code = randomSecret(32);
  const now = deps.now();
  await deps.codes.handle(
    code,
    {
      type: 'IssueRelayCode',
      data: {
        code_hash: hashSecret(code),
        relay_id: relay.id,
        environment: relay.environment,
        from_user_id: from.user.id,
        from_organization_domain: from.organizationDomain,
        partner_domain: relay.partner_domain,
        organization_id: relay.organization_id,
        partner_user_id: partnerUser.id,
        partner_redirect_uri: relay.partner_redirect_uri,
        session_duration_minutes: relay.session_duration_minutes,
        expires_at: new Date(now.getTime() + relayCodeTtlSeconds * 1_000).toISOString(),
        at: now.toISOString(),
      },
    },
    deps.runtime.metadata(context),
    { newStream: true },
  );
  return code;
}

/** A signed-in user's access token relayed into the partner organization: a code on the partner's redirect URI. */
export function requestRelayHandler(deps: RelayDeps) {
  return async ({ params, body }: OperationInput<typeof requestRelay>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const relay = uuidPattern.test(params.relay_id) ? await relayOf(deps, params.relay_id, environment) : null;
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
    const partnerUser = await partnerUserOf(deps, relay, user, context);
    const code = await issueRelayCode(deps, relay, { user, organizationDomain: organization_domain }, partnerUser, context);
    const relayUri = new URL(relay.partner_redirect_uri);
    relayUri.searchParams.set('code', code);
    return created({
      from_user: user.id,
      partner_redirect_uri: relay.partner_redirect_uri,
      relay_id: relay.id,
      relay_uri: relayUri.toString(),
      to_partner_user: partnerUser.id,
    });
  };
}
