import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { orgDomainParamsSchema } from '../common/inputs.schema';
import { adminInvitationSchema, adminSchema } from '../entities/admin.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { invitationRateLimits } from './rate-limits';
import { emailInputSchema } from './users.operations';

export const inviteAdminBodySchema = z.object({ email: emailInputSchema }).meta({ id: 'InviteAdminRequest' });
export const adminParamsSchema = orgDomainParamsSchema.extend({ email: z.string().min(1).max(254) });
export const adminInvitationBodySchema = z
  .object({ token: z.string().trim().min(1).max(200).meta({ description: 'The token of the invitation link' }) })
  .meta({ id: 'AdminInvitationAnswer' });

/** Messages on `token` when an invitation link cannot be used (422 field errors). */
export const adminInvitationMessages = {
  invalid: 'is invalid',
  used: 'has already been used',
  expired: 'has expired: ask to be invited again',
  declined: 'has been declined: ask to be invited again',
} as const;

export const adminListSchema = listSchema(adminSchema, 'AdminList');
export const adminDeletedSchema = deletedSchema(adminSchema, 'AdminDeleted');

export const inviteAdmin = defineOperation({
  operationId: 'inviteAdmin',
  method: 'post',
  path: '/api/v2/org/{org_domain}/admins',
  tag: 'Admins',
  summary: 'Invite an IT admin',
  description:
    'Makes the person in charge of the organization’s SSO an admin and emails them a long-lived invitation link to the onboarding page. Inviting again someone who has not accepted sends a new link (the old one stops working).',
  auth: 'api_key',
  scope: 'admins:write',
  subject: subjects.identity.admins.invite,
  request: { params: orgDomainParamsSchema, body: inviteAdminBodySchema },
  response: { status: 201, description: 'The invited admin', schema: adminSchema },
  errors: ['unauthorized', 'resource_not_found'],
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
});

export const deleteAdmin = defineOperation({
  operationId: 'deleteAdmin',
  method: 'delete',
  path: '/api/v2/org/{org_domain}/admins/{email}',
  tag: 'Admins',
  summary: 'Remove an IT admin',
  description: 'Their invitation link stops working.',
  auth: 'api_key',
  scope: 'admins:write',
  subject: subjects.identity.admins.delete,
  request: { params: adminParamsSchema },
  response: { status: 200, description: 'The removed admin', schema: adminDeletedSchema },
  errors: ['unauthorized', 'resource_not_found'],
});

export const acceptAdminInvitation = defineOperation({
  operationId: 'acceptAdminInvitation',
  method: 'post',
  path: '/api/v2/admin-invitations/accept',
  tag: 'Admins',
  summary: 'Accept an IT admin invitation',
  description: 'Called by the onboarding page with the token of the invitation link. A token is used once.',
  auth: 'none',
  subject: subjects.identity.admins.acceptInvitation,
  request: { body: adminInvitationBodySchema },
  response: { status: 200, description: 'The admin, now in charge', schema: adminSchema },
  errors: [],
  rateLimits: invitationRateLimits,
});

export const declineAdminInvitation = defineOperation({
  operationId: 'declineAdminInvitation',
  method: 'post',
  path: '/api/v2/admin-invitations/decline',
  tag: 'Admins',
  summary: 'Decline an IT admin invitation',
  description: 'Called by the onboarding page with the token of the invitation link. A token is used once.',
  auth: 'none',
  subject: subjects.identity.admins.declineInvitation,
  request: { body: adminInvitationBodySchema },
  response: { status: 200, description: 'The admin, who declined', schema: adminSchema },
  errors: [],
  rateLimits: invitationRateLimits,
});

export const openAdminInvitation = defineOperation({
  operationId: 'openAdminInvitation',
  method: 'post',
  path: '/api/v2/admin-invitations/open',
  tag: 'Admins',
  summary: 'Open an IT admin invitation',
  description:
    'Called by the onboarding page with the token of the invitation link: who is invited, for which organization, until when. Works until the invitation expires, also after it was accepted, but not once declined. Records `last_login_at`.',
  auth: 'none',
  subject: subjects.identity.admins.openInvitation,
  request: { body: adminInvitationBodySchema },
  response: { status: 200, description: 'The invitation', schema: adminInvitationSchema },
  errors: [],
  rateLimits: invitationRateLimits,
});

export const adminOperations = [
  inviteAdmin,
  listAdmins,
  getAdmin,
  deleteAdmin,
  openAdminInvitation,
  acceptAdminInvitation,
  declineAdminInvitation,
];
