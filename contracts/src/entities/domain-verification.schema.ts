import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { timestampSchema } from '../common/primitives.schema';

/**
 * Where the TXT record of a domain verification is published: a name of its own under the domain
 * (the domain's own TXT records, SPF and others, stay untouched), holding `sesame-verification=<token>`.
 */
export const domainVerificationRecordPrefix = '_sesame-verification';
export const domainVerificationValuePrefix = 'sesame-verification=';
export const domainVerificationRecordName = (emailDomain: string) => `${domainVerificationRecordPrefix}.${emailDomain}`;
export const domainVerificationRecordValue = (token: string) => `${domainVerificationValuePrefix}${token}`;

/** How a domain was verified: its DNS TXT record, or the vendor's word with a production key. */
export const domainVerificationMethods = ['dns_txt', 'vendor_assertion'] as const;
export const domainVerificationMethodSchema = z.enum(domainVerificationMethods);
export type DomainVerificationMethod = z.infer<typeof domainVerificationMethodSchema>;

/** Why a DNS check did not verify a domain. */
export const domainVerificationFailureReasons = ['record_not_found', 'record_mismatch', 'lookup_failed'] as const;
export const domainVerificationFailureReasonSchema = z.enum(domainVerificationFailureReasons);
export type DomainVerificationFailureReason = z.infer<typeof domainVerificationFailureReasonSchema>;

/** `unverified`: no verification started; `pending`: its TXT record awaits a check; `verified`: routes by email in production. */
export const domainVerificationStatuses = ['unverified', 'pending', 'verified'] as const;

export const domainVerificationSchema = z
  .object({
    __type__: z.literal('DomainVerification'),
    __domain__: z.string().meta({ description: 'Domain (slug) of the organization' }),
    __environment__: environmentSchema,
    email_domain: z.string().meta({ description: 'An email domain of the organization’s `allowed_email_domains`' }),
    status: z.enum(domainVerificationStatuses).meta({
      description:
        '`unverified`: no verification started; `pending`: publish the TXT record, then verify; `verified`: the domain routes sign-ins by email (in production only verified domains do).',
    }),
    method: domainVerificationMethodSchema.nullable().meta({ description: 'How it was verified; null until it is' }),
    record: z
      .object({
        type: z.literal('TXT'),
        name: z.string().meta({ description: 'The DNS name to publish the record at: `_sesame-verification.<email_domain>`' }),
        value: z.string().meta({ description: 'The TXT value to publish: `sesame-verification=<token>`' }),
      })
      .nullable()
      .meta({ description: 'The TXT record to publish; null when no verification was started' }),
    last_failure: z
      .object({ reason: domainVerificationFailureReasonSchema, at: timestampSchema })
      .nullable()
      .meta({ description: 'The last DNS check that did not verify the domain, since the verification started' }),
    started_at: timestampSchema.nullable(),
    verified_at: timestampSchema.nullable(),
  })
  .meta({ id: 'DomainVerification' });
export type DomainVerification = z.infer<typeof domainVerificationSchema>;
