import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { authnConnections, organizationEnvironmentSchema } from '../entities/organization.schema';

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
export const organizationDeletedDataSchema = z.object({ domain: z.string(), environment: environmentSchema, at: z.string() });

export type OrganizationEvent =
  | { type: 'OrganizationCreated'; data: z.infer<typeof organizationCreatedDataSchema> }
  | { type: 'OrganizationUpdated'; data: z.infer<typeof organizationUpdatedDataSchema> }
  | { type: 'OrganizationDeleted'; data: z.infer<typeof organizationDeletedDataSchema> };
