import {
  adminInvitationEmailDomainBodySchema,
  assertDomainVerification,
  listDomainVerifications,
  onboardingScopeSchema,
  startDomainVerification,
  subjects,
  verifyDomainVerification,
} from '@sesame/contracts';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { OrganizationsDeps } from '../organizations.deps';
import {
  assertDomainVerificationHandler,
  listDomainVerificationsHandler,
  onboardingDomainHandlers,
  startDomainVerificationHandler,
  verifyDomainVerificationHandler,
} from './domain-verification.handlers';
import type { TxtResolver } from './txt-resolver';

/** Wires domain verification into a service runtime: the API's operations and the onboarding page's calls. */
export function registerDomainVerifications(runtime: ServiceRuntime, organizations: OrganizationsDeps, resolver: TxtResolver) {
  const deps = { organizations, resolver };
  runtime.router.operation(listDomainVerifications, listDomainVerificationsHandler(deps));
  runtime.router.operation(startDomainVerification, startDomainVerificationHandler(deps));
  runtime.router.operation(verifyDomainVerification, verifyDomainVerificationHandler(deps));
  runtime.router.operation(assertDomainVerification, assertDomainVerificationHandler(deps));
  const onboarding = onboardingDomainHandlers(deps);
  const { domains } = subjects.identity.organizations;
  const withDomain = onboardingScopeSchema.extend(adminInvitationEmailDomainBodySchema.shape);
  runtime.router.on(domains.onboardingList, onboarding.list, onboardingScopeSchema);
  runtime.router.on(domains.onboardingStart, onboarding.start, withDomain);
  runtime.router.on(domains.onboardingVerify, onboarding.verify, withDomain);
}
