import { z } from '../zod';
import { orgDomainParamsSchema } from '../common/inputs.schema';
import { domainNameSchema } from '../common/primitives.schema';
import { domainVerificationSchema } from '../entities/domain-verification.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { domainVerificationsExamples } from './domain-verifications.examples';

export const emailDomainParamsSchema = orgDomainParamsSchema.extend({
  email_domain: domainNameSchema.meta({ description: 'One of the organization’s `allowed_email_domains`' }),
});

export const domainVerificationListSchema = z
  .object({ data: z.array(domainVerificationSchema) })
  .meta({ id: 'DomainVerificationList' });

const routing =
  'In production, only verified email domains route a sign-in by email (password, magic link, SSO discovery) to the organization; in sandbox, every allowed domain does. A verified domain is the organization’s alone in its environment.';

export const listDomainVerifications = defineOperation({
  operationId: 'listDomainVerifications',
  method: 'get',
  path: '/api/v2/organizations/{org_domain}/domains',
  tag: 'Organizations',
  summary: 'List the email domains of an organization and their verification',
  description: `Every email domain of the organization’s \`allowed_email_domains\`, with its verification status and the TXT record to publish. ${routing}`,
  auth: 'api_key',
  scope: 'organizations:read',
  subject: subjects.identity.organizations.domains.list,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The email domains', schema: domainVerificationListSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: domainVerificationsExamples.listDomainVerifications,
});

export const startDomainVerification = defineOperation({
  operationId: 'startDomainVerification',
  method: 'post',
  path: '/api/v2/organizations/{org_domain}/domains/{email_domain}/verification',
  tag: 'Organizations',
  summary: 'Start the verification of an email domain',
  description: `Answers the TXT record to publish: \`sesame-verification=<token>\` at \`_sesame-verification.<email_domain>\`. Starting again answers the same record (or the verified domain). The domain must be one of the organization’s \`allowed_email_domains\` (422 on \`email_domain\`). ${routing}`,
  auth: 'api_key',
  scope: 'organizations:write',
  subject: subjects.identity.organizations.domains.start,
  request: { params: emailDomainParamsSchema },
  response: { status: 200, description: 'The verification, with its TXT record', schema: domainVerificationSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: domainVerificationsExamples.startDomainVerification,
});

export const verifyDomainVerification = defineOperation({
  operationId: 'verifyDomainVerification',
  method: 'post',
  path: '/api/v2/organizations/{org_domain}/domains/{email_domain}/verify',
  tag: 'Organizations',
  summary: 'Check the TXT record of an email domain now',
  description:
    'Reads the TXT records at `_sesame-verification.<email_domain>`: the verification’s value there verifies the domain. Otherwise 422 with the reason (`domain_verification_record_not_found`, `domain_verification_record_mismatch`, `domain_verification_lookup_failed`) and an `organization.domain.verification_failed` webhook. A domain another organization of the environment has verified answers 409 `domain_verified_by_another_organization`.',
  auth: 'api_key',
  scope: 'organizations:write',
  subject: subjects.identity.organizations.domains.verify,
  request: { params: emailDomainParamsSchema },
  response: { status: 200, description: 'The verified domain', schema: domainVerificationSchema },
  errors: [
    'unauthorized',
    'resource_not_found',
    'domain_verification_not_started',
    'domain_verification_record_not_found',
    'domain_verification_record_mismatch',
    'domain_verification_lookup_failed',
    'domain_verified_by_another_organization',
  ],
  examples: domainVerificationsExamples.verifyDomainVerification,
});

export const assertDomainVerification = defineOperation({
  operationId: 'assertDomainVerification',
  method: 'post',
  path: '/api/v2/organizations/{org_domain}/domains/{email_domain}/assert',
  tag: 'Organizations',
  summary: 'Assert that an organization owns an email domain',
  description:
    'You vouch that the organization owns the domain (you checked it your own way): it is verified without a DNS record. Production API keys only (403 `domain_assertion_requires_production` with a sandbox key). A domain another organization of the environment has verified answers 409.',
  auth: 'api_key',
  scope: 'organizations:write',
  subject: subjects.identity.organizations.domains.assert,
  request: { params: emailDomainParamsSchema },
  response: { status: 200, description: 'The verified domain', schema: domainVerificationSchema },
  errors: [
    'unauthorized',
    'resource_not_found',
    'domain_assertion_requires_production',
    'domain_verified_by_another_organization',
  ],
  examples: domainVerificationsExamples.assertDomainVerification,
});

export const domainVerificationOperations = [
  listDomainVerifications,
  startDomainVerification,
  verifyDomainVerification,
  assertDomainVerification,
];
