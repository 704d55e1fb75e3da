import type { Mailer } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { registerAdmins } from './admins/admins.module';
import { userLimitsOf } from './config';
import type { IdentityConfig } from './config';
import { registerDevOutbox } from './dev/dev-outbox';
import { registerGroups } from './groups/groups.module';
import { registerDomainVerifications } from './organizations/domains/domain-verifications.module';
import { dnsTxtResolver } from './organizations/domains/txt-resolver';
import { registerOrganizations } from './organizations/organizations.module';
import { registerRedirectUris } from './redirect-uris/redirect-uris.module';
import { registerUserMetakeys } from './user-metakeys/user-metakeys.module';
import { registerUsers } from './users/users.module';

export * from './organizations/domain/organization.decider';
export * from './organizations/domain/domain-slug';
export { registerOrganizations } from './organizations/organizations.module';
export { identityConfigSchema } from './config';
export type { IdentityConfig } from './config';

/**
 * The service's handlers and projections on a runtime (organizations, user metakeys, users,
 * admins, groups, redirect URIs, the development outbox), mailing through `mailer`: what `main`
 * starts. Answers the aggregates' dependencies, which the reactors `main` subscribes read.
 */
export function assembleIdentity(runtime: ServiceRuntime, config: IdentityConfig, mailer: Mailer) {
  const organizations = registerOrganizations(runtime);
  registerDomainVerifications(runtime, organizations, dnsTxtResolver(config.SESAME_DNS_SERVERS));
  const metakeys = registerUserMetakeys(runtime);
  const users = registerUsers(runtime, organizations, metakeys, userLimitsOf(config));
  const admins = registerAdmins(runtime, config, organizations, mailer);
  const groups = registerGroups(runtime, organizations, users);
  registerRedirectUris(runtime);
  registerDevOutbox(runtime);
  return { organizations, metakeys, users, admins, groups };
}
