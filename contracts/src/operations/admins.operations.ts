import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { orgDomainParamsSchema } from '../common/inputs.schema';
import { listInputSchema } from '../common/primitives.schema';
import { adminSchema, onboardingSetupSchema } from '../entities/admin.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { emailInputSchema } from './users.operations';
import { adminsExamples } from './admins.examples';

export const inviteAdminBodySchema = z
  .object({
    email: emailInputSchema,
    allowed_setups: listInputSchema(onboardingSetupSchema)
      .pipe(z.array(onboardingSetupSchema).min(1, 'must name at least one setup'))
      .transform((setups) => [...new Set(setups)])
      .optional()
      .meta({
        description:
          'What the admin may set up on the onboarding page: `sso` (single sign-on), `directory_sync` (SCIM provisioning), `domains` (verifying the organization’s email domains by DNS TXT record). Default `["sso"]`. The page’s calls for anything else answer 403 `onboarding_setup_not_allowed`.',
      }),
  })
  .meta({ id: 'InviteAdminRequest' });
export const adminParamsSchema = orgDomainParamsSchema.extend({ email: z.string().min(1).max(254) });
export const adminListSchema = listSchema(adminSchema, 'AdminList');
export const adminDeletedSchema = deletedSchema(adminSchema, 'AdminDeleted');

export const inviteAdmin = defineOperation({
  operationId: 'inviteAdmin',
  method: 'post',
  path: '/api/v2/org/{org_domain}/admins',
  tag: 'Admins',
  summary: 'Invite an IT admin',
  description:
    'Makes the person in charge of the organization’s SSO an admin and emails them an invitation link to the onboarding page. The link works once and only for `SESAME_INVITATION_LINK_TTL_SECONDS` (one hour by default): opening it starts an onboarding session in that browser. Inviting again (also after an answer) sends a new link; the previous link and any onboarding session stop working.',
  auth: 'api_key',
  scope: 'admins:write',
  subject: subjects.identity.admins.invite,
  request: { params: orgDomainParamsSchema, body: inviteAdminBodySchema },
  response: { status: 201, description: 'The invited admin', schema: adminSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: adminsExamples.inviteAdmin,
});

export const listAdmins = defineOperation({
  operationId: 'listAdmins',
  method: 'get',
  path: '/api/v2/org/{org_domain}/admins',
  tag: 'Admins',
  summary: 'List IT admins',
  auth: 'api_key',
  scope: 'admins:read',
  subject: subjects.identity.admins.list,
  request: { params: orgDomainParamsSchema, query: pageQuerySchema },
  response: { status: 200, description: 'A page of admins, oldest first', schema: adminListSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: adminsExamples.listAdmins,
});

export const getAdmin = defineOperation({
  operationId: 'getAdmin',
  method: 'get',
  path: '/api/v2/org/{org_domain}/admins/{email}',
  tag: 'Admins',
  summary: 'Retrieve an IT admin by email',
  auth: 'api_key',
  scope: 'admins:read',
  subject: subjects.identity.admins.get,
  request: { params: adminParamsSchema },
  response: { status: 200, description: 'The admin', schema: adminSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: adminsExamples.getAdmin,
});

export const deleteAdmin = defineOperation({
  operationId: 'deleteAdmin',
  method: 'delete',
  path: '/api/v2/org/{org_domain}/admins/{email}',
  tag: 'Admins',
  summary: 'Remove an IT admin',
  description: 'Their invitation link and their onboarding session stop working.',
  auth: 'api_key',
  scope: 'admins:write',
  subject: subjects.identity.admins.delete,
  request: { params: adminParamsSchema },
  response: { status: 200, description: 'The removed admin', schema: adminDeletedSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: adminsExamples.deleteAdmin,
});

export const revokeAdminOnboarding = defineOperation({
  operationId: 'revokeAdminOnboarding',
  method: 'post',
  path: '/api/v2/org/{org_domain}/admins/{email}/revoke-onboarding',
  tag: 'Admins',
  summary: 'Revoke an IT admin’s onboarding access',
  description:
    'Ends at once the onboarding session the admin’s invitation link opened, and makes a link not opened yet stop working. Nothing else changes; invite the admin again to send a new link. Answers the admin (also when there was nothing to revoke).',
  auth: 'api_key',
  scope: 'admins:write',
  subject: subjects.identity.admins.revokeOnboarding,
  request: { params: adminParamsSchema },
  response: { status: 200, description: 'The admin', schema: adminSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: adminsExamples.revokeAdminOnboarding,
});

export const adminOperations = [inviteAdmin, listAdmins, getAdmin, deleteAdmin, revokeAdminOnboarding];
