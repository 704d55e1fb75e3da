import type { Environment } from '../common/environment.schema';

/** The organization (and environment) a sign-in connection, enrollment or challenge belongs to. */
export interface ConnectionTenant {
  organization_id: string;
  organization_domain: string;
  environment: Environment;
}
