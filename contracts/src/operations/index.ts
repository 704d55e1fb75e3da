import type { Operation } from './operation';
import { oauthOperations } from './oauth.operations';
import { passwordOperations } from './password.operations';
import { organizationOperations } from './organizations.operations';
import { domainVerificationOperations } from './domain-verifications.operations';
import { adminOperations } from './admins.operations';
import { adminOnboardingOperations } from './admin-onboarding.operations';
import { redirectUriOperations } from './redirect-uris.operations';
import { ssoOperations } from './sso.operations';
import { userMetakeyOperations } from './user-metakeys.operations';
import { userOperations } from './users.operations';
import { totpOperations } from './totp.operations';
import { magicLinkOperations } from './magic-link.operations';
import { relayOperations } from './relays.operations';
import { webhookOperations } from './webhooks.operations';
import { webhookEventOperations } from './webhook-events.operations';
import { eventOperations } from './events.operations';
import { directorySyncOperations } from './directory-syncs.operations';
import { scimOperations } from './scim.operations';

export * from './operation';
export * from './operation-examples';
export * from './rate-limits';
export * from './idempotency';
export * from './oauth.operations';
export * from './password.operations';
export * from './organizations.operations';
export * from './domain-verifications.operations';
export * from './users.operations';
export * from './user-metakeys.operations';
export * from './redirect-uris.operations';
export * from './admins.operations';
export * from './admin-onboarding.operations';
export * from './totp.operations';
export * from './magic-link.operations';
export * from './relays.operations';
export * from './webhooks.operations';
export * from './webhook-events.operations';
export * from './events.operations';
export * from './sso.operations';
export * from './directory-syncs.operations';
export * from './scim.operations';

/** Every operation of the gateway, in the order they are documented. */
export const operations: Operation[] = [
  ...organizationOperations,
  ...domainVerificationOperations,
  ...userOperations,
  ...adminOperations,
  ...adminOnboardingOperations,
  ...directorySyncOperations,
  ...scimOperations,
  ...redirectUriOperations,
  ...ssoOperations,
  ...passwordOperations,
  ...userMetakeyOperations,
  ...magicLinkOperations,
  ...totpOperations,
  ...webhookOperations,
  ...webhookEventOperations,
  ...eventOperations,
  ...relayOperations,
  ...oauthOperations,
];
