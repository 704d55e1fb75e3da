import type { System } from './system';
import type { WriteLoad, Written, WrittenKind } from './write-load';

export interface Resource {
  id: string;
  [field: string]: unknown;
}

/**
 * Everything the API shows of what the write load touches, each list read page by page: the
 * read models of identity (organizations, their users, redirect URIs), auth-methods (relays)
 * and webhooks (webhooks).
 */
export interface VisibleState {
  organizations: Resource[];
  users: Map<string, Resource[]>;
  redirectUris: Resource[];
  relays: Resource[];
  webhooks: Resource[];
}

export async function readAll(system: System, path: string, query = ''): Promise<Resource[]> {
  const all: Resource[] = [];
  for (let page = 1; ; page++) {
    const answer = await system.request('GET', `${path}?per_page=100&page=${page}${query}`);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    all.push(...(answer.body.data as Resource[]));
    if (answer.body.pagination.next_page !== null) continue;
    if (answer.body.total !== all.length) throw new Error(`GET ${path}: total ${answer.body.total}, ${all.length} listed`);
    return all;
  }
}

export async function visibleState(system: System): Promise<VisibleState> {
  const organizations = await readAll(system, '/api/v2/organizations');
  const users = new Map<string, Resource[]>();
  for (const organization of organizations)
    users.set(organization.domain as string, await readAll(system, `/api/v2/org/${organization.domain}/users`));
  return {
    organizations,
    users,
    redirectUris: await readAll(system, '/api/v2/redirect_uris'),
    relays: await readAll(system, '/api/v2/relays'),
    webhooks: await readAll(system, '/api/v2/webhooks'),
  };
}

const byId = (a: Resource, b: Resource) => a.id.localeCompare(b.id);

/** A stable text of the state, for comparing two readings. */
export function stateText(state: VisibleState): string {
  return JSON.stringify({
    organizations: [...state.organizations].sort(byId),
    users: [...state.users.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([domain, list]) => [domain, [...list].sort(byId)]),
    redirectUris: [...state.redirectUris].sort(byId),
    relays: [...state.relays].sort(byId),
    webhooks: [...state.webhooks].sort(byId),
  });
}

export interface WriteAudit {
  acknowledged: number;
  lost: Written[];
  duplicated: string[];
  phantom: string[];
  unknownApplied: number;
}

/** A listed resource as the load would have recorded it: its kind, the key it chose, its organization. */
interface Seen {
  kind: WrittenKind;
  id: string;
  key: string;
  domain?: string;
  givenName?: unknown;
}

/** The kind a write is listed as: a SCIM push is an identity user. */
const listedKind = (kind: WrittenKind): WrittenKind => (kind === 'scim-user' || kind === 'scim-patch' ? 'user' : kind);

function seenOf(state: VisibleState): Seen[] {
  return [
    ...state.organizations.map((o) => ({ kind: 'organization' as const, id: o.id, key: o.name as string })),
    ...[...state.users.entries()].flatMap(([domain, list]) =>
      list.map((u) => ({
        kind: 'user' as const,
        id: u.id,
        key: u.email as string,
        domain,
        givenName: (u.profile as { given_name?: unknown } | undefined)?.given_name,
      })),
    ),
    ...state.redirectUris.map((r) => ({ kind: 'redirect-uri' as const, id: r.id, key: r.url as string })),
    ...state.relays.map((r) => ({
      kind: 'relay' as const,
      id: r.id,
      key: r.partner_redirect_uri as string,
      domain: r.partner_domain as string,
    })),
    ...state.webhooks.map((w) => ({ kind: 'webhook' as const, id: w.id, key: w.name as string })),
  ];
}

/** Whether `resource` shows `written`: same kind, id, key and organization; a SCIM push its user (ids differ), a patch its given name. */
function shows(resource: Seen, written: Written): boolean {
  const same =
    resource.kind === listedKind(written.kind) &&
    resource.key === written.key &&
    (written.kind === 'organization' || resource.domain === written.domain);
  if (written.kind === 'scim-user') return same;
  if (written.kind === 'scim-patch') return same && resource.givenName === written.givenName;
  return same && resource.id === written.id;
}

/**
 * Compares what the load was told with what the API shows: every acknowledged write present
 * (same id, same key, same organization), no resource listed twice (an event applied twice by a
 * projection: a list of redirect URIs folded from one stream would repeat the URI; one SCIM push
 * provisioned twice would list its email twice in the organization), nothing present that no
 * request asked for (only requests whose outcome was unknown may or may not be).
 */
export function auditWrites(load: WriteLoad, state: VisibleState, before: VisibleState): WriteAudit {
  const old = new Set(seenOf(before).map((resource) => `${resource.kind}:${resource.id}`));
  const fresh = seenOf(state).filter((resource) => !old.has(`${resource.kind}:${resource.id}`));
  const ids = seenOf(state).flatMap((resource) => [
    `${resource.kind}:${resource.id}`,
    ...(resource.kind === 'user' ? [`user email:${resource.domain}/${resource.key}`] : []),
  ]);
  const duplicated = ids.filter((id, index) => ids.indexOf(id) !== index);
  const present = (written: Written) => fresh.some((resource) => shows(resource, written));
  const lost = load.acknowledged.filter((written) => !present(written));
  const keyOf = (written: Written) => `${listedKind(written.kind)}:${written.key}`;
  const asked = new Set([...load.acknowledged, ...load.unknown].map(keyOf));
  const phantom = fresh.map((resource) => `${resource.kind}:${resource.key}`).filter((key) => !asked.has(key));
  const acknowledgedKeys = new Set(load.acknowledged.map(keyOf));
  const unknownApplied = fresh.filter((resource) => !acknowledgedKeys.has(`${resource.kind}:${resource.key}`)).length;
  return { acknowledged: load.acknowledged.length, lost, duplicated, phantom, unknownApplied };
}
