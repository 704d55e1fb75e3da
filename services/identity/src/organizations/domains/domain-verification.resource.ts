import { domainVerificationRecordName, domainVerificationRecordValue } from '@sesame/contracts';
import type { DomainVerification } from '@sesame/contracts';
import type { StoredOrganization } from '../organizations.deps';

/** The API representation of one of the organization's allowed email domains and its verification. */
export function toDomainVerification(organization: StoredOrganization, emailDomain: string): DomainVerification {
  const verification = organization.domain_verifications.find(({ email_domain }) => email_domain === emailDomain);
  return {
    __type__: 'DomainVerification',
    __domain__: organization.domain,
    __environment__: organization.environment,
    email_domain: emailDomain,
    status: verification?.status ?? 'unverified',
    method: verification?.method ?? null,
    record: verification?.token
      ? {
          type: 'TXT',
          name: domainVerificationRecordName(emailDomain),
          value: domainVerificationRecordValue(verification.token),
        }
      : null,
    last_failure: verification?.last_failure ?? null,
    started_at: verification?.started_at ?? null,
    verified_at: verification?.verified_at ?? null,
  };
}

/** Every allowed email domain of the organization, in its order, with its verification. */
export const toDomainVerifications = (organization: StoredOrganization) =>
  organization.allowed_email_domains.map((emailDomain) => toDomainVerification(organization, emailDomain));
