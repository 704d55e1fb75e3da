import type { Environment, RpcMeta, TenantRef } from '@sesame/contracts';
import { catalogueError, environments } from '@sesame/contracts';
import type { DomainEvent, EventMetadata, RecordedEvent } from '../event-store/event-store.port';
import { fail } from './decider';

const isEnvironment = (value: unknown): value is Environment => environments.includes(value as Environment);

/**
 * The tenant an event's data name: `organization_id` and `environment` at its top (identity's
 * `TenantEventData`, the connections' `Tenant`), or in its `tenant` (a command's).
 */
export function tenantOfData(data: unknown): TenantRef | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { organization_id, environment, tenant } = data as Record<string, unknown>;
  if (typeof organization_id === 'string' && isEnvironment(environment)) return { organization_id, environment };
  return tenant === undefined ? undefined : tenantOfData(tenant);
}

/** The tenant of events about to be appended: the first one their data name, else the aggregate's. */
export function tenantOfEvents(events: readonly DomainEvent[], ofState: () => TenantRef | undefined): TenantRef | undefined {
  for (const event of events) {
    const tenant = tenantOfData(event.data);
    if (tenant) return tenant;
  }
  return ofState();
}

/** The metadata of an append with its tenant on it (the one set by the caller wins). */
export const withTenant = (metadata: EventMetadata, tenant: TenantRef | undefined): EventMetadata =>
  metadata.tenant || !tenant
    ? metadata
    : { ...metadata, tenant: { organization_id: tenant.organization_id, environment: tenant.environment } };

/** The organization a recorded event belongs to: its envelope's, else (older events) what its data name. */
export const tenantOfEvent = (event: RecordedEvent): TenantRef | undefined => event.metadata.tenant ?? tenantOfData(event.data);

/** The environment a request acts in (its API key's): operations without one are refused as unauthorized. */
export const environmentOf = (meta: Pick<RpcMeta, 'environment'>): Environment =>
  meta.environment ?? fail(catalogueError('unauthorized'));
