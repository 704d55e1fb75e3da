import { randomBytes } from 'node:crypto';
import { catalogueError, domainVerificationRecordName } from '@sesame/contracts';
import type {
  Environment,
  OnboardingScope,
  OperationInput,
  assertDomainVerification,
  listDomainVerifications,
  startDomainVerification,
  verifyDomainVerification,
} from '@sesame/contracts';
import { failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { runOrganizationCommand } from '../commands/organization.commands';
import { verificationFailureError, verificationToCheck } from '../domain/domain-verification';
import type { OrganizationsDeps } from '../organizations.deps';
import { organizationKey } from '../projections/organizations.projection';
import { findOrganization } from '../queries/organization.queries';
import { toDomainVerification, toDomainVerifications } from './domain-verification.resource';
import type { TxtResolver } from './txt-resolver';

export interface DomainVerificationsDeps {
  organizations: OrganizationsDeps;
  resolver: TxtResolver;
}

/** The organization and environment a call acts on: the API key's, or the onboarding session's. */
interface Target {
  environment: Environment;
  org_domain: string;
  email_domain: string;
}

/** 128 random bits: the token of a TXT record, unguessable so that no one else can publish it first. */
const newToken = () => randomBytes(16).toString('base64url');

async function list(deps: DomainVerificationsDeps, environment: Environment, orgDomain: string) {
  const organization = await findOrganization(deps.organizations, environment, orgDomain);
  if (!organization) return failure(catalogueError('resource_not_found'));
  return ok({ data: toDomainVerifications(organization) });
}

async function start(deps: DomainVerificationsDeps, target: Target, context: RequestContext) {
  const { environment, org_domain, email_domain } = target;
  const organizations = deps.organizations;
  const organization = await runOrganizationCommand(
    organizations,
    environment,
    org_domain,
    { type: 'StartDomainVerification', data: { email_domain, token: newToken(), at: organizations.now().toISOString() } },
    organizations.metadata(context),
  );
  return ok(toDomainVerification(organization, email_domain));
}

/**
 * Checks the organization's verification before asking the resolver anything (no DNS lookup of a
 * domain the organization does not allow), then records what the resolver found: verified, or
 * the failure (recorded, and answered with its reason).
 */
async function verify(deps: DomainVerificationsDeps, target: Target, context: RequestContext) {
  const { environment, org_domain, email_domain } = target;
  const organizations = deps.organizations;
  const { state } = await organizations.organizations.load(organizationKey(environment, org_domain));
  if (state.status !== 'active') return failure(catalogueError('resource_not_found'));
  if (verificationToCheck(state, email_domain).status === 'verified') return ok(toDomainVerification(state, email_domain));
  const lookup = await deps.resolver.resolveTxt(domainVerificationRecordName(email_domain));
  const organization = await runOrganizationCommand(
    organizations,
    environment,
    org_domain,
    { type: 'VerifyDomain', data: { email_domain, lookup, at: organizations.now().toISOString() } },
    organizations.metadata(context),
  );
  const verification = toDomainVerification(organization, email_domain);
  if (verification.status !== 'verified' && verification.last_failure)
    return failure(verificationFailureError(verification.last_failure.reason, email_domain));
  return ok(verification);
}

export function listDomainVerificationsHandler(deps: DomainVerificationsDeps) {
  return ({ params }: OperationInput<typeof listDomainVerifications>, context: RequestContext) =>
    list(deps, environmentOf(context.meta), params.org_domain);
}

export function startDomainVerificationHandler(deps: DomainVerificationsDeps) {
  return ({ params }: OperationInput<typeof startDomainVerification>, context: RequestContext) =>
    start(deps, { environment: environmentOf(context.meta), ...params }, context);
}

export function verifyDomainVerificationHandler(deps: DomainVerificationsDeps) {
  return ({ params }: OperationInput<typeof verifyDomainVerification>, context: RequestContext) =>
    verify(deps, { environment: environmentOf(context.meta), ...params }, context);
}

/** The vendor's word, with a production key (the decider refuses a sandbox organization, so a sandbox key). */
export function assertDomainVerificationHandler(deps: DomainVerificationsDeps) {
  return async ({ params }: OperationInput<typeof assertDomainVerification>, context: RequestContext) => {
    const { org_domain, email_domain } = params;
    const organizations = deps.organizations;
    const organization = await runOrganizationCommand(
      organizations,
      environmentOf(context.meta),
      org_domain,
      { type: 'AssertDomain', data: { email_domain, at: organizations.now().toISOString() } },
      organizations.metadata(context),
    );
    return ok(toDomainVerification(organization, email_domain));
  };
}

/** The onboarding page's calls: the organization and environment of the checked session, never of the body. */
export function onboardingDomainHandlers(deps: DomainVerificationsDeps) {
  const target = (scope: OnboardingScope & { email_domain: string }): Target => ({
    environment: scope.environment,
    org_domain: scope.organization_domain,
    email_domain: scope.email_domain,
  });
  return {
    list: (scope: OnboardingScope) => list(deps, scope.environment, scope.organization_domain),
    start: (scope: OnboardingScope & { email_domain: string }, context: RequestContext) => start(deps, target(scope), context),
    verify: (scope: OnboardingScope & { email_domain: string }, context: RequestContext) => verify(deps, target(scope), context),
  };
}
