import { z } from '../zod';
import { listSchema, pageQuerySchema } from '../common/pagination.schema';
import { booleanInputSchema, integerInputSchema } from '../common/primitives.schema';
import { optionalNullable, orgDomainParamsSchema } from '../common/inputs.schema';
import { ssoConnectionSchema, ssoProviderTypeSchema, usersAccessPolicySchema } from '../entities/sso.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';

/** Largest IdP metadata document accepted (real ones are a few kilobytes; federations are not supported). */
export const maxIdpMetadataLength = 200_000;

export const ssoConnectionSettingsSchema = z.object({
  active: booleanInputSchema.optional(),
  provider_type: ssoProviderTypeSchema.optional(),
  users_access_policy: usersAccessPolicySchema.optional(),
  number_users_provisioning_limit: optionalNullable(integerInputSchema.pipe(z.number().min(0).max(10_000_000))),
  metadata: optionalNullable(z.string().max(maxIdpMetadataLength)).meta({
    description: 'The identity provider’s SAML metadata XML (signing certificates, entity id, SSO URL are read from it)',
  }),
  update_profile_only_at_creation: booleanInputSchema.optional(),
  allow_idp_initiated: booleanInputSchema.optional(),
  onboarding: optionalNullable(z.record(z.string(), z.unknown())),
});
export type SsoConnectionSettings = z.infer<typeof ssoConnectionSettingsSchema>;

export const ssoConnectionBodySchema = ssoConnectionSettingsSchema.meta({ id: 'SsoConnectionRequest' });
export const ssoConnectionListSchema = listSchema(ssoConnectionSchema, 'SsoConnectionList');
export const spIdParamsSchema = z.object({
  sp_id: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[a-z0-9_-]+$/),
});

export const createSsoConnection = defineOperation({
  operationId: 'createSsoConnection',
  method: 'post',
  path: '/api/v2/org/{org_domain}/sso-connection',
  tag: 'SSO',
  summary: 'Create the SSO connection of an organization',
  description:
    'One SAML connection per organization and environment (the API key’s). `metadata` may be given now or later (PUT); it must be valid XML with at least one signing certificate, none expired.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.sso.create,
  request: { params: orgDomainParamsSchema, body: ssoConnectionBodySchema },
  response: { status: 201, description: 'The created connection', schema: ssoConnectionSchema },
  errors: ['unauthorized', 'resource_not_found', 'sso_connection_already_exists'],
});

export const getSsoConnection = defineOperation({
  operationId: 'getSsoConnection',
  method: 'get',
  path: '/api/v2/org/{org_domain}/sso-connection',
  tag: 'SSO',
  summary: 'Retrieve the SSO connection of an organization',
  auth: 'api_key',
  scope: 'connections:read',
  subject: subjects.authMethods.sso.get,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The connection', schema: ssoConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
});

export const updateSsoConnection = defineOperation({
  operationId: 'updateSsoConnection',
  method: 'put',
  path: '/api/v2/org/{org_domain}/sso-connection',
  tag: 'SSO',
  summary: 'Update the SSO connection of an organization',
  description: 'Only the given fields change. New metadata replaces the identity provider’s certificates.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.sso.update,
  request: { params: orgDomainParamsSchema, body: ssoConnectionBodySchema },
  response: { status: 200, description: 'The updated connection', schema: ssoConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
});

export const listSsoConnections = defineOperation({
  operationId: 'listSsoConnections',
  method: 'get',
  path: '/api/v2/sso-connections',
  tag: 'SSO',
  summary: 'List SSO connections',
  auth: 'api_key',
  scope: 'connections:read',
  subject: subjects.authMethods.sso.list,
  request: { query: pageQuerySchema },
  response: {
    status: 200,
    description: 'A page of connections of the environment, oldest first',
    schema: ssoConnectionListSchema,
  },
  errors: ['unauthorized'],
});

export const getSpMetadata = defineOperation({
  operationId: 'getSsoSpMetadata',
  method: 'get',
  path: '/sso/saml/{sp_id}/metadata',
  tag: 'SSO',
  summary: 'Our SAML service-provider metadata for a connection',
  description: 'Public: the document an IT admin gives their identity provider (`saml_config.cryptr_metadata_url`).',
  auth: 'none',
  subject: subjects.authMethods.sso.spMetadata,
  request: { params: spIdParamsSchema },
  response: {
    status: 200,
    description: 'SAML 2.0 metadata (XML)',
    schema: z.string(),
    contentType: 'application/samlmetadata+xml',
  },
  errors: ['resource_not_found'],
});

export const ssoOperations = [createSsoConnection, getSsoConnection, updateSsoConnection, listSsoConnections, getSpMetadata];
