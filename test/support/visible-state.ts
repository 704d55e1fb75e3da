import type { System } from './system';
import type { WriteLoad, Written } from './write-load';

interface Resource {
  id: string;
  [field: string]: unknown;
}

/** Everything the API shows of organizations and their users, each list read page by page. */
export interface VisibleState {
  organizations: Resource[];
  users: Map<string, Resource[]>;
}

export async function readAll(system: System, path: string): Promise<Resource[]> {
  const all: Resource[] = [];
  for (let page = 1; ; page++) {
    const answer = await system.request('GET', `${path}?per_page=100&page=${page}`);
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
  return { organizations, users };
}

/** A stable text of the state, for comparing two readings. */
export function stateText(state: VisibleState): string {
  const byId = (a: Resource, b: Resource) => a.id.localeCompare(b.id);
  return JSON.stringify({
    organizations: [...state.organizations].sort(byId),
    users: [...state.users.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([domain, list]) => [domain, [...list].sort(byId)]),
  });
}

export interface WriteAudit {
  acknowledged: number;
  lost: Written[];
  duplicated: string[];
  phantom: string[];
  unknownApplied: number;
}

/**
 * Compares what the load was told with what the API shows: every acknowledged write present
 * (same id, same organization), no resource listed twice (an event applied twice), nothing
 * present that no request asked for (only requests whose outcome was unknown may or may not be).
 */
export function auditWrites(load: WriteLoad, state: VisibleState, before: VisibleState): WriteAudit {
  const organizations = state.organizations.filter(
    (organization) => !before.organizations.some((old) => old.id === organization.id),
  );
  const seen = new Set([...before.users.values()].flat().map((user) => user.id));
  const users = [...state.users.entries()]
    .flatMap(([domain, list]) => list.map((user) => ({ ...user, domain }) as Resource & { domain: string }))
    .filter((user) => !seen.has(user.id));
  const ids = [...state.organizations, ...users].map((resource) => resource.id);
  const duplicated = ids.filter((id, index) => ids.indexOf(id) !== index);
  const present = (written: Written) =>
    written.kind === 'organization'
      ? organizations.some((organization) => organization.id === written.id && organization.name === written.key)
      : users.some((user) => user.id === written.id && user.email === written.key && user.domain === written.domain);
  const lost = load.acknowledged.filter((written) => !present(written));
  const asked = new Set([...load.acknowledged, ...load.unknown].map((written) => written.key));
  const phantom = [
    ...organizations.map((organization) => organization.name as string),
    ...users.map((user) => user.email as string),
  ].filter((key) => !asked.has(key));
  const acknowledgedKeys = new Set(load.acknowledged.map((written) => written.key));
  const unknownApplied = [...organizations.map((o) => o.name as string), ...users.map((u) => u.email as string)].filter(
    (key) => !acknowledgedKeys.has(key),
  ).length;
  return { acknowledged: load.acknowledged.length, lost, duplicated, phantom, unknownApplied };
}
