import { z } from '../zod';
import { adminSchema } from '../entities/admin.schema';
import { userMetakeySchema } from '../entities/misc.schema';
import { identitySchema, userSchema } from '../entities/user.schema';
import { domainVerificationFailureReasonSchema, domainVerificationMethodSchema } from '../entities/domain-verification.schema';
import { organizationSettingsSchema } from '../events/organization.events';

/**
 * The `data` of the identity service's webhook events: organizations, users, IT admins, redirect
 * URIs, user metadata keys and groups. Each is the public contract of its code: a field not listed
 * here never reaches a subscriber, whatever the internal event carries.
 */

/** The organization of a user, IT admin or group event. */
const tenant = {
  organization_domain: z.string().meta({ description: 'Domain of the organization' }),
  organization_id: z.string().meta({ description: 'Id of the organization' }),
};

export const organizationCreatedPayloadSchema = organizationSettingsSchema.extend({ id: z.string(), domain: z.string() });
export const organizationUpdatedPayloadSchema = z.object({
  changes: organizationSettingsSchema.partial().meta({ description: 'The new values of the settings that changed' }),
});
export const organizationDeletedPayloadSchema = z.object({ domain: z.string() });
export const domainVerificationStartedPayloadSchema = z.object({
  email_domain: z.string().meta({ description: 'The email domain being verified' }),
  record_name: z.string().meta({ description: 'Where its TXT record is expected: `_sesame-verification.<email_domain>`' }),
});
export const domainVerifiedPayloadSchema = z.object({
  email_domain: z.string().meta({ description: 'The verified email domain' }),
  method: domainVerificationMethodSchema,
});
export const domainVerificationFailedPayloadSchema = z.object({
  email_domain: z.string().meta({ description: 'The email domain whose check failed' }),
  reason: domainVerificationFailureReasonSchema,
});

/** A user as identity keeps it (the API's user without `meta_data`). */
const webhookUserSchema = userSchema.meta({ id: 'WebhookUser' });
const userSources = ['api', 'sso', 'scim', 'magic_link', 'password', 'relay'] as const;

export const userCreatedPayloadSchema = z.object({
  ...tenant,
  user: webhookUserSchema,
  source: z.enum(userSources).meta({ description: 'How the user was created' }),
});
export const userChangedPayloadSchema = z.object({
  ...tenant,
  user: webhookUserSchema,
  changes: z.record(z.string(), z.unknown()).meta({ description: 'The new values of the fields that changed' }),
  previous_values: z.record(z.string(), z.unknown()).meta({ description: 'Their values before' }),
});
export const userIdentityRecordedPayloadSchema = userChangedPayloadSchema.extend({ identity: identitySchema });
export const userDeletedPayloadSchema = z.object({
  ...tenant,
  user: webhookUserSchema,
  reason: z.enum(['api', 'scim', 'organization_deleted']),
});
export const userErasedPayloadSchema = z.object({
  ...tenant,
  user_id: z.string().meta({ description: 'Id of the erased user' }),
  pseudonym: z.string().meta({ description: "What replaces the user's personal values in the events feed" }),
});

export const adminPayloadSchema = z.object({ ...tenant, admin: adminSchema });
export const adminInvitedPayloadSchema = adminPayloadSchema.extend({ invitation_expires_at: z.string() });
export const adminDeletedPayloadSchema = adminPayloadSchema.extend({ reason: z.enum(['api', 'organization_deleted']) });

export const redirectUriCreatedPayloadSchema = z.object({
  redirect_uri: z.object({ id: z.string(), url: z.string(), inserted_at: z.string() }).meta({ id: 'WebhookRedirectUri' }),
  default: z.boolean().meta({ description: 'Whether it became the default' }),
});
export const redirectUriDefaultChangedPayloadSchema = z.object({
  id: z.string().meta({ description: 'The new default' }),
  previous_id: z.string().nullable().meta({ description: 'The previous default' }),
});
export const redirectUriDeletedPayloadSchema = z.object({ id: z.string(), url: z.string() });

export const userMetakeyCreatedPayloadSchema = z.object({ metakey: userMetakeySchema });
export const userMetakeyDeletionStartedPayloadSchema = z.object({ name: z.string() });
export const userMetakeyDeletedPayloadSchema = z.object({
  name: z.string(),
  users_cleaned: z.number().int().meta({ description: 'How many users had a value removed' }),
});

const webhookGroupSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    members: z.array(z.string()).meta({ description: 'User ids' }),
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookGroup' });

export const groupPayloadSchema = z.object({ ...tenant, group: webhookGroupSchema });
export const groupRenamedPayloadSchema = groupPayloadSchema.extend({ previous_display_name: z.string() });
export const groupMembersPayloadSchema = groupPayloadSchema.extend({
  members: z.array(z.string()).meta({ description: 'The user ids added or removed' }),
});
export const groupDeletedPayloadSchema = groupPayloadSchema.extend({ reason: z.enum(['api', 'organization_deleted']) });

export const identityPayloadSchemas = {
  'organization.created': organizationCreatedPayloadSchema,
  'organization.updated': organizationUpdatedPayloadSchema,
  'organization.deleted': organizationDeletedPayloadSchema,
  'organization.domain.verification_started': domainVerificationStartedPayloadSchema,
  'organization.domain.verified': domainVerifiedPayloadSchema,
  'organization.domain.verification_failed': domainVerificationFailedPayloadSchema,
  'user.created': userCreatedPayloadSchema,
  'user.updated': userChangedPayloadSchema,
  'user.deactivated': userChangedPayloadSchema,
  'user.identity_recorded': userIdentityRecordedPayloadSchema,
  'user.deleted': userDeletedPayloadSchema,
  'user.erased': userErasedPayloadSchema,
  'admin.invited': adminInvitedPayloadSchema,
  'admin.invitation_accepted': adminPayloadSchema,
  'admin.invitation_declined': adminPayloadSchema,
  'admin.logged_in': adminPayloadSchema,
  'admin.deleted': adminDeletedPayloadSchema,
  'redirect_uri.created': redirectUriCreatedPayloadSchema,
  'redirect_uri.default_changed': redirectUriDefaultChangedPayloadSchema,
  'redirect_uri.deleted': redirectUriDeletedPayloadSchema,
  'user_metakey.created': userMetakeyCreatedPayloadSchema,
  'user_metakey.deletion_started': userMetakeyDeletionStartedPayloadSchema,
  'user_metakey.deleted': userMetakeyDeletedPayloadSchema,
  'group.created': groupPayloadSchema,
  'group.updated': groupRenamedPayloadSchema,
  'group.members_added': groupMembersPayloadSchema,
  'group.members_removed': groupMembersPayloadSchema,
  'group.deleted': groupDeletedPayloadSchema,
} as const;
