import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

const pending = {
  __type__: 'DomainVerification',
  __domain__: 'wayne-enterprises',
  __environment__: 'production',
  email_domain: 'wayne.com',
  status: 'pending',
  method: null,
  record: {
    type: 'TXT',
    name: '_sesame-verification.wayne.com',
    value: 'sesame-verification=q3V8mZr1cXo0Jt5hN2yWbA',
  },
  last_failure: null,
  started_at: '2025-03-04T09:12:45.118Z',
  verified_at: null,
};
const verified = { ...pending, status: 'verified', method: 'dns_txt', verified_at: '2025-03-04T09:20:02.551Z' };

/** Examples of the domain verification operations (API reference), checked against their schemas. */
export const domainVerificationsExamples = {
  listDomainVerifications: {
    response: { data: [verified] },
    error: apiErrorExample('resource_not_found'),
  },
  startDomainVerification: {
    response: pending,
    error: { status: 422, body: { errors: { email_domain: ["must be one of the organization's allowed_email_domains"] } } },
  },
  verifyDomainVerification: {
    response: verified,
    error: apiErrorExample(
      'domain_verification_record_mismatch',
      "The TXT records at _sesame-verification.wayne.com do not hold this verification's value: publish the value the verification answered, exactly",
    ),
  },
  assertDomainVerification: {
    response: { ...verified, method: 'vendor_assertion', record: null, started_at: null },
    error: apiErrorExample('domain_assertion_requires_production'),
  },
} satisfies Record<string, OperationExamples>;
