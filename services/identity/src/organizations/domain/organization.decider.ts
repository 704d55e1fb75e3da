import { catalogueError, fieldError, refusedField } from '@sesame/contracts';
import type { Environment, OrganizationEvent, OrganizationProvisioner, OrganizationSettings } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import {
  assertDomain,
  evolveDomainVerifications,
  keepAllowed,
  startDomainVerification,
  verifyDomain,
} from './domain-verification';
import type { DomainVerificationCommand, DomainVerificationRecord } from './domain-verification';

export type OrganizationState =
  | { status: 'empty' }
  | ({
      status: 'active' | 'deleted';
      id: string;
      domain: string;
      /** The environment the organization belongs to; the other environment has its own organizations. */
      environment: Environment;
      inserted_at: string;
      updated_at: string;
      /** The services whose confirmation it awaited at its creation, and those that confirmed. */
      provisioners: OrganizationProvisioner[];
      provisioned_by: OrganizationProvisioner[];
      /** The verifications of its `allowed_email_domains` (DNS TXT record or vendor assertion). */
      domain_verifications: DomainVerificationRecord[];
    } & OrganizationSettings);

export type OrganizationCommand =
  | {
      type: 'CreateOrganization';
      data: {
        id: string;
        domain: string;
        environment: Environment;
        settings: OrganizationSettings;
        provisioners: OrganizationProvisioner[];
        at: string;
      };
    }
  | {
      type: 'ConfirmOrganizationProvisioning';
      data: { organization_id: string; service: OrganizationProvisioner; at: string };
    }
  | { type: 'UpdateOrganization'; data: { changes: Partial<OrganizationSettings> & { domain?: string }; at: string } }
  | { type: 'DeleteOrganization'; data: { at: string } }
  | DomainVerificationCommand;

const settingKeys = [
  'name',
  'allowed_email_domains',
  'allowed_authn_connections',
  'color',
  'icon_logo_url',
  'inline_logo_url',
  'locale',
  'timezone',
  'tenant_id',
  'environments',
] as const satisfies readonly (keyof OrganizationSettings)[];

function create(
  command: Extract<OrganizationCommand, { type: 'CreateOrganization' }>,
  state: OrganizationState,
): OrganizationEvent[] {
  if (state.status === 'active') fail(refusedField('domain', 'taken'));
  const { id, domain, environment, settings, provisioners, at } = command.data;
  checkEnvironments(settings.environments, environment);
  return [{ type: 'OrganizationCreated', data: { id, domain, environment, ...settings, provisioners, at } }];
}

/**
 * A service's confirmation that it took in the organization, once per awaited service: a late one
 * (the organization was deleted, or recreated with the same domain: another id) changes nothing.
 */
function confirm(
  command: Extract<OrganizationCommand, { type: 'ConfirmOrganizationProvisioning' }>,
  state: OrganizationState,
): OrganizationEvent[] {
  const { organization_id, service } = command.data;
  if (state.status !== 'active' || state.id !== organization_id) return [];
  if (!state.provisioners.includes(service) || state.provisioned_by.includes(service)) return [];
  return [{ type: 'OrganizationProvisioningConfirmed', data: command.data }];
}

export const organizationEnvironmentMessages = {
  other: (environment: Environment) =>
    `can only name the environment of this organization, ${environment}: an organization belongs to one environment`,
  once: (environment: Environment) => `must name the environment of this organization, ${environment}, once`,
};

/** An organization lists its own environment only, once (its status); the other environment's organizations are others. */
function checkEnvironments(environments: OrganizationSettings['environments'], own: Environment): void {
  if (environments.some(({ name }) => name !== own)) fail(fieldError('environments', organizationEnvironmentMessages.other(own)));
  if (environments.length !== 1) fail(fieldError('environments', organizationEnvironmentMessages.once(own)));
}

function update(
  command: Extract<OrganizationCommand, { type: 'UpdateOrganization' }>,
  state: OrganizationState,
): OrganizationEvent[] {
  if (state.status !== 'active') fail(catalogueError('resource_not_found'));
  const { domain, ...requested } = command.data.changes;
  if (domain !== undefined && domain !== state.domain)
    fail(fieldError('domain', "can't be changed once the organization exists"));
  if (requested.environments !== undefined) checkEnvironments(requested.environments, state.environment);
  const changes: Partial<OrganizationSettings> = {};
  for (const key of settingKeys) {
    const value = requested[key];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(state[key])) Object.assign(changes, { [key]: value });
  }
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'OrganizationUpdated', data: { changes, at: command.data.at } }];
}

function remove(
  command: Extract<OrganizationCommand, { type: 'DeleteOrganization' }>,
  state: OrganizationState,
): OrganizationEvent[] {
  if (state.status !== 'active') fail(catalogueError('resource_not_found'));
  return [
    {
      type: 'OrganizationDeleted',
      data: { organization_id: state.id, domain: state.domain, environment: state.environment, at: command.data.at },
    },
  ];
}

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({ status: 'empty' }),
  tenant: (state) => (state.status === 'empty' ? undefined : { organization_id: state.id, environment: state.environment }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization':
        return create(command, state);
      case 'UpdateOrganization':
        return update(command, state);
      case 'DeleteOrganization':
        return remove(command, state);
      case 'ConfirmOrganizationProvisioning':
        return confirm(command, state);
      case 'StartDomainVerification':
        if (state.status !== 'active') fail(catalogueError('resource_not_found'));
        return startDomainVerification(state, command.data);
      case 'VerifyDomain':
        if (state.status !== 'active') fail(catalogueError('resource_not_found'));
        return verifyDomain(state, command.data);
      case 'AssertDomain':
        if (state.status !== 'active') fail(catalogueError('resource_not_found'));
        return assertDomain(state, command.data);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated': {
        const { at, tenant_id, provisioners, ...created } = event.data;
        return {
          status: 'active',
          ...created,
          tenant_id: tenant_id ?? null,
          provisioners: provisioners ?? [],
          provisioned_by: [],
          domain_verifications: [],
          inserted_at: at,
          updated_at: at,
        };
      }
      case 'OrganizationUpdated': {
        if (state.status === 'empty') return state;
        const allowed = event.data.changes.allowed_email_domains ?? state.allowed_email_domains;
        return {
          ...state,
          ...event.data.changes,
          domain_verifications: keepAllowed(state.domain_verifications, allowed),
          updated_at: event.data.at,
        };
      }
      case 'OrganizationDeleted':
        if (state.status === 'empty') return state;
        return { ...state, status: 'deleted', updated_at: event.data.at };
      case 'OrganizationProvisioningConfirmed':
        if (state.status === 'empty') return state;
        return { ...state, provisioned_by: [...state.provisioned_by, event.data.service] };
      case 'DomainVerificationStarted':
      case 'DomainVerified':
      case 'DomainVerificationFailed':
        if (state.status === 'empty') return state;
        return { ...state, domain_verifications: evolveDomainVerifications(state.domain_verifications, event) };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
