import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { authnConnections, organizationEnvironmentSchema } from '../entities/organization.schema';
import type { DomainVerificationFailureReason, DomainVerificationMethod } from '../entities/domain-verification.schema';
import type { ServiceName } from '../subjects';

/**
 * The services that take every new organization in (each reacts to the organization's events: its
 * connections, directory sync and webhooks go with it) and confirm it; an organization is
 * `pending` until each has.
 */
export const organizationProvisioners = ['auth-methods', 'directory-sync', 'webhooks'] as const satisfies readonly ServiceName[];
export type OrganizationProvisioner = (typeof organizationProvisioners)[number];

export const organizationSettingsSchema = z.object({
  name: z.string(),
  allowed_email_domains: z.array(z.string()),
  allowed_authn_connections: z.array(z.enum(authnConnections)),
  color: z.string().nullable(),
  icon_logo_url: z.string().nullable(),
  inline_logo_url: z.string().nullable(),
  locale: z.string().nullable(),
  timezone: z.string().nullable(),
  /** The vendor's own identifier of the customer, held through a reservation (`unique-organizationTenantId:<environment>:<tenant_id>`). */
  tenant_id: z.string().nullable(),
  environments: z.array(organizationEnvironmentSchema),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

/** An organization belongs to one environment: `environment` and `domain` name it (stream `organization-<environment>:<domain>`). */
export const organizationCreatedDataSchema = organizationSettingsSchema.extend({
  /** Absent from the events written before organizations had one. */
  tenant_id: z.string().nullable().optional(),
  /**
   * The services whose confirmation the organization awaits before its provisioning is `terminated`
   * (`organizationProvisioners` at its creation). Absent from the events written before
   * organizations had a `pending` state: those awaited none.
   */
  provisioners: z.array(z.enum(organizationProvisioners)).optional(),
  id: z.uuid(),
  domain: z.string(),
  environment: environmentSchema,
  at: z.string(),
});

export const organizationUpdatedDataSchema = z.object({
  changes: organizationSettingsSchema.partial(),
  at: z.string(),
});

/** Consumers remove what the organization held in `environment` only: the other environment's organization of the same domain is another one. */
export const organizationDeletedDataSchema = z.object({
  /** The deleted organization (a later one of the same domain is another); absent from deletions recorded before it was added. */
  organization_id: z.string().optional(),
  domain: z.string(),
  environment: environmentSchema,
  at: z.string(),
});

/** A provisioner confirmed that it took in the organization `organization_id` (identity records it on the organization's stream). */
export interface OrganizationProvisioningConfirmedData {
  organization_id: string;
  service: OrganizationProvisioner;
  at: string;
}

/**
 * A verification of `email_domain` (one of the organization's `allowed_email_domains`) started:
 * the TXT record `sesame-verification=<token>` at `_sesame-verification.<email_domain>` proves it.
 * The token is public (it is published in the DNS); it only ties the record to this organization.
 */
export interface DomainVerificationStartedData {
  email_domain: string;
  token: string;
  at: string;
}

/** `email_domain` is verified: it routes sign-ins by email, and no other organization of the environment can verify it. */
export interface DomainVerifiedData {
  email_domain: string;
  method: DomainVerificationMethod;
  at: string;
}

/** A DNS check did not find the record of the verification. */
export interface DomainVerificationFailedData {
  email_domain: string;
  reason: DomainVerificationFailureReason;
  at: string;
}

export type OrganizationEvent =
  | { type: 'OrganizationCreated'; data: z.infer<typeof organizationCreatedDataSchema> }
  | { type: 'OrganizationUpdated'; data: z.infer<typeof organizationUpdatedDataSchema> }
  | { type: 'OrganizationDeleted'; data: z.infer<typeof organizationDeletedDataSchema> }
  | { type: 'OrganizationProvisioningConfirmed'; data: OrganizationProvisioningConfirmedData }
  | { type: 'DomainVerificationStarted'; data: DomainVerificationStartedData }
  | { type: 'DomainVerified'; data: DomainVerifiedData }
  | { type: 'DomainVerificationFailed'; data: DomainVerificationFailedData };

/** Stream category of a provisioner's acknowledgements (`organizationAcknowledgement-<organization id>`, in its own store). */
export const organizationAcknowledgementCategory = 'organizationAcknowledgement';

/**
 * A provisioner's own record that its reaction to identity's organization events took in the
 * organization's creation; identity reads it from the provisioner's event feed.
 */
export type OrganizationAcknowledgementEvent = {
  type: 'OrganizationAcknowledged';
  data: { organization_id: string; domain: string; environment: z.infer<typeof environmentSchema>; at: string };
};
