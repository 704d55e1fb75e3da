import { randomUUID } from 'node:crypto';
import { catalogueError, relaySessionMinutes } from '@sesame/contracts';
import type {
  OperationInput,
  Relay,
  RelayData,
  createRelay,
  deleteRelay,
  getRelay,
  listRelays,
  updateRelay,
} from '@sesame/contracts';
import { created, environmentOf, fail, findPage, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { sourceOrganizationsOf } from './domain/relay-policy';
import { relayOf } from './relays.deps';
import type { RelayDeps } from './relays.deps';

export const toRelay = (relay: RelayData): Relay => ({
  id: relay.id,
  jit: relay.jit,
  organization: relay.partner_domain,
  partner_domain: relay.partner_domain,
  source_organizations: sourceOrganizationsOf(relay),
  partner_redirect_uri: relay.partner_redirect_uri,
  session_duration_minutes: relay.session_duration_minutes,
});

const requireRelay = async (deps: RelayDeps, id: string, context: RequestContext) =>
  (await relayOf(deps, id, environmentOf(context.meta))) ?? fail(catalogueError('resource_not_found'));

/** The source organizations, each once, with their ids: every one must exist (404 otherwise). */
async function existingSources(deps: RelayDeps, domains: string[], context: RequestContext) {
  const unique = [...new Set(domains)];
  const ids = await Promise.all(
    unique.map(async (domain) => [domain, (await deps.organizations.get(domain, context.meta)).id] as const),
  );
  return { source_organizations: unique, source_organization_ids: Object.fromEntries(ids) };
}

export function createRelayHandler(deps: RelayDeps) {
  return async ({ body }: OperationInput<typeof createRelay>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const partner = await deps.organizations.get(body.partner_domain, context.meta);
    const relay: RelayData = {
      id: randomUUID(),
      environment,
      organization_id: partner.id,
      partner_domain: partner.domain,
      ...(await existingSources(deps, body.source_organizations ?? [], context)),
      partner_redirect_uri: body.partner_redirect_uri,
      jit: body.jit ?? false,
      session_duration_minutes: body.session_duration_minutes ?? relaySessionMinutes.default,
      inserted_at: deps.now().toISOString(),
    };
    const command = {
      type: 'CreateRelay' as const,
      data: { relay, partner_allowed_email_domains: partner.allowed_email_domains },
    };
    const { state } = await deps.relays.handle(relay.id, command, deps.runtime.metadata(context));
    return created(toRelay(state.relay as RelayData));
  };
}

export function listRelaysHandler(deps: RelayDeps) {
  return async ({ query }: OperationInput<typeof listRelays>, context: RequestContext) => {
    const filter = { 'relay.environment': environmentOf(context.meta) };
    const sort = { 'relay.inserted_at': 1 } as const;
    return ok(await findPage(deps.view.documents, { filter, sort, query }, (document) => toRelay(document.relay as RelayData)));
  };
}

export function getRelayHandler(deps: RelayDeps) {
  return async ({ params }: OperationInput<typeof getRelay>, context: RequestContext) =>
    ok(toRelay(await requireRelay(deps, params.relay_id, context)));
}

export function updateRelayHandler(deps: RelayDeps) {
  return async ({ params, body }: OperationInput<typeof updateRelay>, context: RequestContext) => {
    await requireRelay(deps, params.relay_id, context);
    const sources = body.source_organizations ? await existingSources(deps, body.source_organizations, context) : undefined;
    const changes = sources ? { ...body, source_organizations: sources.source_organizations } : body;
    const at = deps.now().toISOString();
    const ids = sources ? { source_organization_ids: sources.source_organization_ids } : {};
    const command = { type: 'UpdateRelay' as const, data: { changes, ...ids, at } };
    const { state } = await deps.relays.handle(params.relay_id, command, deps.runtime.metadata(context));
    return ok(toRelay(state.relay as RelayData));
  };
}

export function deleteRelayHandler(deps: RelayDeps) {
  return async ({ params }: OperationInput<typeof deleteRelay>, context: RequestContext) => {
    const relay = await requireRelay(deps, params.relay_id, context);
    const command = { type: 'DeleteRelay' as const, data: { at: deps.now().toISOString() } };
    await deps.relays.handle(params.relay_id, command, deps.runtime.metadata(context));
    return ok({ deleted: true, resource: toRelay(relay) });
  };
}
