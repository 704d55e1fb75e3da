import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';

/**
 * The one tenant: an organization (its id, and its domain as the API names it) in its environment.
 * Every event of something that belongs to an organization carries it, in its data (these fields)
 * and on its envelope (`EventMetadata.tenant`: the id and the environment).
 */
export const tenantSchema = z.object({
  organization_id: z.string(),
  organization_domain: z.string(),
  environment: environmentSchema,
});
export type Tenant = z.infer<typeof tenantSchema>;

/** The tenant on an event's envelope: the organization's id and environment (a domain can be re-created as another organization). */
export type TenantRef = Pick<Tenant, 'organization_id' | 'environment'>;
