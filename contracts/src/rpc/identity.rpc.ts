import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { freeFormObjectSchema } from '../common/free-form.schema';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { adminInvitationSchema, adminSchema, onboardingSetupSchema } from '../entities/admin.schema';
import { groupSchema } from '../entities/group.schema';
import { userMetakeySchema } from '../entities/misc.schema';
import { organizationSchema } from '../entities/organization.schema';
import { userSchema } from '../entities/user.schema';
import { emailInputSchema, metadataInputSchema, profileInputSchema, userInputFields } from '../operations/users.operations';
import { booleanInputSchema } from '../common/primitives.schema';
import { subjects } from '../subjects';
import { tenantSchema } from '../events/tenant';

/**
 * Request and response schemas of the identity subjects other services call (they ask identity
 * over NATS, never its store). Send `{ meta: { correlationId }, input }` where `input` follows
 * `request`; the answer is an `RpcReply` whose body follows `response` (errors are `AppError`s:
 * `fields` 422 with the same messages as the public API, and a `reason` code for the refusals
 * callers branch on, such as `taken`; `resource_not_found` when the organization is unknown or
 * deleted). Services call these with the platform's `TypedRpcClient` (see `rpcTable`).
 */
export const tenantScopeSchema = tenantSchema
  .pick({ organization_domain: true, environment: true })
  .extend({ organization_domain: z.string().min(1).max(100) });

export const userIdRequestSchema = tenantScopeSchema.extend({ id: z.uuid() });
export const userEmailRequestSchema = tenantScopeSchema.extend({ email: z.string().trim().min(1).max(254) });
export const maybeUserSchema = z.object({ user: userSchema.nullable() });

/** Where a user came from: recorded on `UserCreated` for webhooks and audits. */
export const userSources = ['api', 'sso', 'scim', 'magic_link', 'password', 'relay'] as const;

export const identityInputSchema = z.object({
  provider: z.string().min(1).max(100).meta({ example: 'saml.okta' }),
  idp_id: z.string().min(1).max(500),
  authenticated_at: z.number().int().nonnegative(),
  /** What the provider sent (SAML attributes, session index, issuer). */
  data: freeFormObjectSchema({ maxDepth: 10, maxBytes: 65_536 }).default({}),
});
export type IdentityInput = z.infer<typeof identityInputSchema>;

export const provisionUserRequestSchema = tenantScopeSchema.extend({
  email: emailInputSchema,
  ...userInputFields,
  active: z.boolean().optional(),
  source: z.enum(userSources),
});
export type ProvisionUserRequest = z.infer<typeof provisionUserRequestSchema>;

export const findOrCreateUserRequestSchema = tenantScopeSchema.extend({
  email: emailInputSchema,
  email_verified: z.boolean().optional(),
  profile: profileInputSchema.optional(),
  source: z.enum(userSources),
});
export const findOrCreateUserResponseSchema = z.object({ user: userSchema, created: z.boolean() });

export const modifyUserRequestSchema = userIdRequestSchema.extend({
  ...z.object({ email: emailInputSchema, active: booleanInputSchema, ...userInputFields }).partial().shape,
});
export type ModifyUserRequest = z.infer<typeof modifyUserRequestSchema>;

export const recordIdentityRequestSchema = userIdRequestSchema.extend({
  identity: identityInputSchema,
  /** Profile attributes the provider sent; it owns them from now on. */
  profile: profileInputSchema.default({}),
  /** The connection's setting: attributes are written at the first sign-in only and stay editable. */
  update_profile_only_at_creation: z.boolean().default(false),
});
export type RecordIdentityRequest = z.infer<typeof recordIdentityRequestSchema>;

export const userFilterSchema = z.object({
  email: z.string().max(254).optional(),
  active: z.boolean().optional(),
  ids: z.array(z.uuid()).max(1_000).optional(),
  metadata: metadataInputSchema.optional().meta({ description: 'Equality on each given key' }),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});
export type UserFilter = z.infer<typeof userFilterSchema>;

export const searchUsersRequestSchema = tenantScopeSchema.extend({
  ...pageQuerySchema.shape,
  filter: userFilterSchema.default({}),
});
export const countUsersRequestSchema = tenantScopeSchema.extend({ filter: userFilterSchema.default({}) });
export const userCountSchema = z.object({ count: z.number().int() });

export const groupIdRequestSchema = tenantScopeSchema.extend({ id: z.uuid() });
export const createGroupRequestSchema = tenantScopeSchema.extend({
  display_name: z.string().trim().min(1).max(255),
  members: z.array(z.uuid()).max(10_000).default([]),
});
export const updateGroupRequestSchema = groupIdRequestSchema.extend({
  display_name: z.string().trim().min(1).max(255).optional(),
  /** Replaces the whole member list. */
  members: z.array(z.uuid()).max(10_000).optional(),
});
export const groupMembersRequestSchema = groupIdRequestSchema.extend({ members: z.array(z.uuid()).min(1).max(10_000) });
export const listGroupsRequestSchema = tenantScopeSchema.extend({
  ...pageQuerySchema.shape,
  display_name: z.string().optional(),
  member: z.uuid().optional(),
});
export const maybeGroupSchema = z.object({ group: groupSchema.nullable() });

export const checkRedirectUriRequestSchema = z.object({ environment: environmentSchema, url: z.string().min(1).max(2_000) });
export const checkRedirectUriResponseSchema = z.object({ registered: z.boolean(), default_url: z.string().nullable() });

export const activeUserMetakeysRequestSchema = z.object({ environment: environmentSchema });
export const activeUserMetakeysResponseSchema = z.object({ data: z.array(userMetakeySchema) });
/** The organization a sign-in is for, looked up in `meta.environment` (required: organizations belong to one environment). */
export const signInOrganizationRequestSchema = z.object({
  email: z.string().trim().min(1).max(254),
  org_domain: z.string().min(1).max(100).optional(),
});
export const signInOrganizationResponseSchema = z.object({ organization: organizationSchema });
export const orgDomainRequiredMessages = {
  none: 'is required: no organization allows the domain of this email',
  /** In production only a verified domain routes by email. */
  unverified:
    'is required: no organization has verified the domain of this email (in production, only verified domains route by email)',
  several: 'is required: several organizations allow the domain of this email',
} as const;

/** The `sesame_onboarding` cookie's value, as the browser sent it. */
export const onboardingSessionCredentialSchema = z.object({
  session: z.string().min(1).max(200),
  /** What the call sets up: refused (403 `onboarding_setup_not_allowed`) unless the invitation allows it. */
  setup: onboardingSetupSchema.optional(),
});
/** What a checked onboarding session may act on: the gateway adds it to the page's calls. */
export const onboardingScopeSchema = tenantScopeSchema.extend({ admin_id: z.uuid(), session_id: z.uuid() });
export type OnboardingScope = z.infer<typeof onboardingScopeSchema>;
export const recordAdminLoginRequestSchema = tenantScopeSchema.extend({ email: z.string().min(1).max(254) });

const userList = listSchema(userSchema, 'UserList');
const groupList = listSchema(groupSchema, 'GroupList');

/** Every service-to-service identity subject with its request and response schemas. */
export const identityRpc = {
  [subjects.identity.users.findById]: { request: userIdRequestSchema, response: maybeUserSchema },
  [subjects.identity.users.findByEmail]: { request: userEmailRequestSchema, response: maybeUserSchema },
  [subjects.identity.users.provision]: { request: provisionUserRequestSchema, response: userSchema },
  [subjects.identity.users.findOrCreate]: { request: findOrCreateUserRequestSchema, response: findOrCreateUserResponseSchema },
  [subjects.identity.users.modify]: { request: modifyUserRequestSchema, response: userSchema },
  [subjects.identity.users.deactivate]: { request: userIdRequestSchema, response: userSchema },
  [subjects.identity.users.remove]: { request: userIdRequestSchema, response: deletedSchema(userSchema, 'UserDeleted') },
  [subjects.identity.users.recordIdentity]: { request: recordIdentityRequestSchema, response: userSchema },
  [subjects.identity.users.search]: { request: searchUsersRequestSchema, response: userList },
  [subjects.identity.users.count]: { request: countUsersRequestSchema, response: userCountSchema },
  [subjects.identity.groups.create]: { request: createGroupRequestSchema, response: groupSchema },
  [subjects.identity.groups.get]: { request: groupIdRequestSchema, response: maybeGroupSchema },
  [subjects.identity.groups.list]: { request: listGroupsRequestSchema, response: groupList },
  [subjects.identity.groups.update]: { request: updateGroupRequestSchema, response: groupSchema },
  [subjects.identity.groups.addMembers]: { request: groupMembersRequestSchema, response: groupSchema },
  [subjects.identity.groups.removeMembers]: { request: groupMembersRequestSchema, response: groupSchema },
  [subjects.identity.groups.delete]: { request: groupIdRequestSchema, response: deletedSchema(groupSchema, 'GroupDeleted') },
  [subjects.identity.organizations.forSignIn]: {
    request: signInOrganizationRequestSchema,
    response: signInOrganizationResponseSchema,
  },
  [subjects.identity.userMetakeys.active]: {
    request: activeUserMetakeysRequestSchema,
    response: activeUserMetakeysResponseSchema,
  },
  [subjects.identity.redirectUris.check]: { request: checkRedirectUriRequestSchema, response: checkRedirectUriResponseSchema },
  [subjects.identity.admins.authenticateOnboardingSession]: {
    request: onboardingSessionCredentialSchema,
    response: onboardingScopeSchema,
  },
  [subjects.identity.admins.onboardingSession]: { request: onboardingScopeSchema, response: adminInvitationSchema },
  [subjects.identity.admins.acceptInvitation]: { request: onboardingScopeSchema, response: adminSchema },
  [subjects.identity.admins.declineInvitation]: { request: onboardingScopeSchema, response: adminSchema },
  [subjects.identity.admins.recordLogin]: { request: recordAdminLoginRequestSchema, response: adminSchema },
} as const;
