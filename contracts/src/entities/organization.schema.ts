import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { timestampSchema } from '../common/primitives.schema';

export const environmentStatuses = ['up', 'down'] as const;
export const environmentStatusSchema = z.enum(environmentStatuses);

export const organizationEnvironmentSchema = z
  .object({ name: z.enum(['sandbox', 'production']), status: environmentStatusSchema })
  .meta({ id: 'OrganizationEnvironment' });

/**
 * Cryptr's provisioning states (SPEC section 4; its SDKs decode no other): `pending` until every service
 * has taken in the new organization, then `terminated`, the provisioning having terminated (finished).
 */
export const organizationStates = ['pending', 'terminated'] as const;

export const organizationStatusSchema = z
  .object({
    state: z.enum(organizationStates),
    errors: z.array(z.string()),
    progress_in_percentage: z.number().int().min(0).max(100),
    estimated_time_to_complete_in_seconds: z.number().int().min(0),
  })
  .meta({
    id: 'OrganizationStatus',
    description:
      "Cryptr's provisioning states: `pending` while the services take in the new organization (`progress_in_percentage`: the share that has), `terminated` once all have (the provisioning has terminated: the organization is fully set up).",
  });

export const authnConnections = ['sso', 'password', 'magic_link', 'totp'] as const;

export const organizationSchema = z
  .object({
    __type__: z.literal('Organization'),
    __domain__: z.string(),
    __environment__: environmentSchema,
    id: z.uuid(),
    name: z.string(),
    domain: z
      .string()
      .meta({ description: 'Slug generated from the name at creation; unique in its environment and immutable.' }),
    tenant_id: z.string().nullable().meta({
      description:
        'Your own identifier of this customer, unique among the organizations of its environment; null when none was given.',
    }),
    allowed_email_domains: z.array(z.string()),
    allowed_authn_connections: z.array(z.enum(authnConnections)),
    color: z.string().nullable(),
    icon_logo_url: z.string().nullable(),
    inline_logo_url: z.string().nullable(),
    locale: z.string().nullable(),
    timezone: z.string().nullable(),
    environments: z.array(organizationEnvironmentSchema).meta({
      description: 'The environment of the organization and its status (one entry: each environment has its own organizations)',
    }),
    status: organizationStatusSchema,
    inserted_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Organization' });
export type Organization = z.infer<typeof organizationSchema>;
