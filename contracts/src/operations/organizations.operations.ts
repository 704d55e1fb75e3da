import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import {
  hexColorSchema,
  localeSchema,
  optionalNullable,
  orgDomainParamsSchema,
  tenantIdSchema,
  timezoneSchema,
} from '../common/inputs.schema';
import { domainNameSchema, httpUrlSchema, listInputSchema } from '../common/primitives.schema';
import {
  authnConnections,
  environmentStatusSchema,
  organizationEnvironmentSchema,
  organizationSchema,
} from '../entities/organization.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { organizationsExamples } from './organizations.examples';

const organizationFields = {
  allowed_email_domains: listInputSchema(domainNameSchema).pipe(z.array(z.string()).max(100)).optional(),
  allowed_authn_connections: listInputSchema(z.enum(authnConnections)).optional(),
  color: optionalNullable(hexColorSchema),
  icon_logo_url: optionalNullable(httpUrlSchema),
  inline_logo_url: optionalNullable(httpUrlSchema),
  locale: optionalNullable(localeSchema),
  timezone: optionalNullable(timezoneSchema),
  tenant_id: tenantIdSchema.nullable().optional().meta({
    description:
      'Your own identifier of this customer: unique among the organizations of the environment, 1 to 128 letters, digits, `.`, `_`, `:` or `-`. On update, null removes it and frees it for another organization.',
  }),
};

export const createOrganizationBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    ...organizationFields,
  })
  .meta({ id: 'CreateOrganizationRequest' });
export type CreateOrganizationBody = z.infer<typeof createOrganizationBodySchema>;

export const updateOrganizationBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    domain: z.string().optional().meta({ description: 'Cannot be changed; sending another value is an error' }),
    environments: z
      .array(organizationEnvironmentSchema)
      .max(2)
      .optional()
      .meta({ description: "The status of the organization's own environment; naming the other environment is an error" }),
    ...organizationFields,
  })
  .meta({ id: 'UpdateOrganizationRequest' });
export type UpdateOrganizationBody = z.infer<typeof updateOrganizationBodySchema>;

export const listOrganizationsQuerySchema = pageQuerySchema.extend({
  q: z
    .object({ environments_status_in: listInputSchema(environmentStatusSchema).optional() })
    .optional()
    .meta({ description: 'Filter: `q[environments_status_in][]=up` keeps organizations with an environment in that status' }),
});
export type ListOrganizationsQuery = z.infer<typeof listOrganizationsQuerySchema>;

export const organizationListSchema = listSchema(organizationSchema, 'OrganizationList');
export const organizationDeletedSchema = deletedSchema(organizationSchema, 'OrganizationDeleted');

export const createOrganization = defineOperation({
  operationId: 'createOrganization',
  method: 'post',
  path: '/api/v2/organizations',
  tag: 'Organizations',
  summary: 'Create an organization',
  description:
    'The organization belongs to the environment of the API key. The domain is generated from the name (lowercase, dashes) and must be unique in that environment: the other environment may have its own organization of the same domain. An optional `tenant_id`, your own identifier of the customer, is unique in the environment too: a taken one answers 422.',
  auth: 'api_key',
  scope: 'organizations:write',
  subject: subjects.identity.organizations.create,
  request: { body: createOrganizationBodySchema },
  response: { status: 201, description: 'The created organization', schema: organizationSchema },
  errors: ['unauthorized'],
  examples: organizationsExamples.createOrganization,
});

export const listOrganizations = defineOperation({
  operationId: 'listOrganizations',
  method: 'get',
  path: '/api/v2/organizations',
  tag: 'Organizations',
  summary: 'List organizations',
  description: 'The organizations of the environment of the API key.',
  auth: 'api_key',
  scope: 'organizations:read',
  subject: subjects.identity.organizations.list,
  request: { query: listOrganizationsQuerySchema },
  response: { status: 200, description: 'A page of organizations', schema: organizationListSchema },
  errors: ['unauthorized'],
  examples: organizationsExamples.listOrganizations,
});

export const getOrganization = defineOperation({
  operationId: 'getOrganization',
  method: 'get',
  path: '/api/v2/organizations/{org_domain}',
  tag: 'Organizations',
  summary: 'Retrieve an organization',
  description: "An organization of the API key's environment; one of the other environment answers 404.",
  auth: 'api_key',
  scope: 'organizations:read',
  subject: subjects.identity.organizations.get,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The organization', schema: organizationSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: organizationsExamples.getOrganization,
});

export const updateOrganization = defineOperation({
  operationId: 'updateOrganization',
  method: 'put',
  path: '/api/v2/organizations/{org_domain}',
  tag: 'Organizations',
  summary: 'Update an organization',
  description:
    'Every field but the domain can change. A new `tenant_id` must not be held by another organization of the environment (422); the previous one is freed. An organization of the other environment answers 404.',
  auth: 'api_key',
  scope: 'organizations:write',
  subject: subjects.identity.organizations.update,
  request: { params: orgDomainParamsSchema, body: updateOrganizationBodySchema },
  response: { status: 200, description: 'The updated organization', schema: organizationSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: organizationsExamples.updateOrganization,
});

export const deleteOrganization = defineOperation({
  operationId: 'deleteOrganization',
  method: 'delete',
  path: '/api/v2/organizations/{org_domain}',
  tag: 'Organizations',
  summary: 'Delete an organization',
  description:
    "Deletes the organization of the API key's environment and everything it holds there (users, IT admins, groups, connections, directory sync), and frees its `tenant_id`; the other environment's organization of the same domain stays untouched.",
  auth: 'api_key',
  scope: 'organizations:write',
  subject: subjects.identity.organizations.delete,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The deleted organization', schema: organizationDeletedSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: organizationsExamples.deleteOrganization,
});

export const organizationOperations = [
  createOrganization,
  listOrganizations,
  getOrganization,
  updateOrganization,
  deleteOrganization,
];
