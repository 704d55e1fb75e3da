import type { AdminEvent, Environment, GroupEvent, OrganizationEvent, TenantEventData, UserEvent } from '@sesame/contracts';
import { DomainError, loadAggregate, systemActor } from '@sesame/platform';
import type { Commit, EventMetadata, EventStore, Logger, ProjectionRunner, RecordedEvent } from '@sesame/platform';
import type { AdminsDeps } from '../admins/admins.deps';
import { adminTenant } from '../admins/domain/admin.decider';
import type { StoredAdmin } from '../admins/domain/admin.decider';
import type { GroupsDeps } from '../groups/groups.deps';
import { groupTenant } from '../groups/domain/group.decider';
import type { StoredGroup } from '../groups/domain/group.decider';
import { organizationAggregate } from '../organizations/commands/organization.aggregate';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import { organizationKey } from '../organizations/projections/organizations.projection';
import { findOrganization } from '../organizations/queries/organization.queries';
import { deleteUser } from '../users/commands/user.commands';
import { scopeKey, tenantOf as userTenant } from '../users/domain/user.decider';
import type { Tenant } from '../users/domain/user.decider';
import type { UsersDeps } from '../users/users.deps';

export interface CascadeDeps {
  eventStore: EventStore;
  organizations: Pick<OrganizationsDeps, 'view' | 'organizations'>;
  users: UsersDeps;
  admins: AdminsDeps;
  groups: GroupsDeps;
  projections: Pick<ProjectionRunner, 'caughtUp'>;
  logger: Logger;
  now(): Date;
}

type Event = RecordedEvent & (OrganizationEvent | UserEvent | AdminEvent | GroupEvent);

const metadataOf = (event: RecordedEvent, at: Date): EventMetadata => ({
  correlationId: event.metadata.correlationId,
  causationId: event.id,
  actor: systemActor('identity:organization-cascade'),
  ...(event.metadata.environment ? { environment: event.metadata.environment } : {}),
  occurredAt: at.toISOString(),
});

const tenantOf = (data: TenantEventData): Tenant => ({
  organization_id: data.organization_id,
  organization_domain: data.organization_domain,
  allowed_email_domains: [],
  environment: data.environment,
});

/** Runs a clean-up command; one that finds its target already gone has nothing left to do. */
async function idempotent(task: () => Promise<unknown>): Promise<void> {
  try {
    await task();
  } catch (error) {
    if (!(error instanceof DomainError && error.error.kind === 'error' && error.error.code === 'resource_not_found')) throw error;
  }
}

/**
 * Keeps the organization's resources consistent with it (issue 3, item 5), from the identity
 * event feed (durable, at least once; every step idempotent):
 * - `OrganizationDeleted`: deletes its users (giving their emails back), admins and groups in
 *   the organization's environment only, each with its own event (`reason: organization_deleted`) that other services react to;
 * - a user, admin or group created under an organization deleted meanwhile (a race with the
 *   deletion) is deleted the same way;
 * - `UserDeleted`: the user leaves its groups.
 */
export function organizationCascadeReactor(deps: CascadeDeps) {
  const liveOrganization = async (data: TenantEventData): Promise<boolean> => {
    const check = async () => {
      const organization = await findOrganization(deps.organizations, data.environment, data.organization_domain);
      return organization?.id === data.organization_id;
    };
    if (await check()) return true;
    await deps.projections.caughtUp();
    return check();
  };

  /** What the organization holds in its own environment: the other environment's organization of the domain is another. */
  const deleteOrganizationResources = async (organizationId: string, environment: Environment, event: RecordedEvent) => {
    await deps.projections.caughtUp();
    const filter = { scope: scopeKey(organizationId, environment) };
    const metadata = metadataOf(event, deps.now());
    for (const user of await deps.users.view.documents.find(filter))
      if (user.status === 'active')
        await idempotent(() => deleteUser(deps.users, userTenant(user), user._id, 'organization_deleted', metadata));
    for (const admin of (await deps.admins.view.documents.find(filter)) as (StoredAdmin & { _id: string })[])
      await removeAdmin(admin, metadata);
    for (const group of (await deps.groups.view.documents.find(filter)) as (StoredGroup & { _id: string })[])
      await idempotent(() =>
        deps.groups.groups.handle(
          group.id,
          {
            type: 'DeleteGroup',
            data: { tenant: groupTenant(group), reason: 'organization_deleted', at: deps.now().toISOString() },
          },
          metadata,
        ),
      );
  };

  const removeAdmin = (admin: StoredAdmin & { _id: string }, metadata: EventMetadata) =>
    idempotent(() =>
      deps.admins.admins.handle(
        admin._id,
        {
          type: 'RemoveAdmin',
          data: {
            tenant: adminTenant(admin),
            reason: 'organization_deleted',
            at: deps.now().toISOString(),
          },
        },
        metadata,
      ),
    );

  /** The id of the organization an event of its stream was about (a later one of the same domain is another). */
  const organizationIdAt = async (event: RecordedEvent & Extract<OrganizationEvent, { type: 'OrganizationDeleted' }>) => {
    const key = organizationKey(event.data.environment, event.data.domain);
    const { state } = await loadAggregate(deps.eventStore, organizationAggregate, key, { upTo: event.revision });
    return state.status === 'empty' ? null : state.id;
  };

  return async (commit: Commit): Promise<void> => {
    for (const event of commit.events as Event[]) {
      switch (event.type) {
        case 'OrganizationDeleted': {
          const organizationId = await organizationIdAt(event);
          if (organizationId) await deleteOrganizationResources(organizationId, event.data.environment, event);
          deps.logger.info(
            { organization: event.data.domain, environment: event.data.environment },
            'organization resources removed',
          );
          break;
        }
        case 'UserCreated':
          if (!(await liveOrganization(event.data)))
            await idempotent(() =>
              deleteUser(
                deps.users,
                tenantOf(event.data),
                event.data.user.id,
                'organization_deleted',
                metadataOf(event, deps.now()),
              ),
            );
          break;
        case 'AdminInvited':
          if (!(await liveOrganization(event.data))) {
            const [admin] = await deps.admins.view.documents.find({ id: event.data.admin.id });
            if (admin) await removeAdmin(admin as StoredAdmin & { _id: string }, metadataOf(event, deps.now()));
          }
          break;
        case 'GroupCreated':
          if (!(await liveOrganization(event.data)))
            await idempotent(() =>
              deps.groups.groups.handle(
                event.data.group.id,
                {
                  type: 'DeleteGroup',
                  data: { tenant: tenantOf(event.data), reason: 'organization_deleted', at: deps.now().toISOString() },
                },
                metadataOf(event, deps.now()),
              ),
            );
          break;
        case 'UserDeleted': {
          await deps.projections.caughtUp();
          const groups = await deps.groups.view.documents.find({ members: event.data.user.id });
          for (const group of groups as (StoredGroup & { _id: string })[])
            await idempotent(() =>
              deps.groups.groups.handle(
                group.id,
                {
                  type: 'RemoveGroupMembers',
                  data: { tenant: groupTenant(group), members: [event.data.user.id], at: deps.now().toISOString() },
                },
                metadataOf(event, deps.now()),
              ),
            );
          break;
        }
        default:
          break;
      }
    }
  };
}
