import { createHash, timingSafeEqual } from 'node:crypto';
import { catalogueError, domainVerificationRecordName, domainVerificationRecordValue, fieldError } from '@sesame/contracts';
import type {
  AppError,
  DomainVerificationFailureReason,
  DomainVerificationMethod,
  Environment,
  OrganizationEvent,
} from '@sesame/contracts';
import { fail } from '@sesame/platform';

/** The verification of one of the organization's `allowed_email_domains`. */
export interface DomainVerificationRecord {
  email_domain: string;
  /** Null for a domain the vendor asserted without a DNS verification started. */
  token: string | null;
  status: 'pending' | 'verified';
  method: DomainVerificationMethod | null;
  started_at: string | null;
  verified_at: string | null;
  last_failure: { reason: DomainVerificationFailureReason; at: string } | null;
}

/**
 * What the resolver found at `_sesame-verification.<email_domain>`: its TXT records (each one's
 * strings joined), no record at all (no such name, or no TXT there), or a lookup that failed.
 */
export type TxtLookup = { outcome: 'records'; records: string[] } | { outcome: 'not_found' } | { outcome: 'failed' };

/** The part of an organization's state domain verifications read. */
export interface DomainsHolder {
  environment: Environment;
  allowed_email_domains: string[];
  domain_verifications: DomainVerificationRecord[];
}

export type DomainVerificationCommand =
  | { type: 'StartDomainVerification'; data: { email_domain: string; token: string; at: string } }
  | { type: 'VerifyDomain'; data: { email_domain: string; lookup: TxtLookup; at: string } }
  | { type: 'AssertDomain'; data: { email_domain: string; at: string } };

export const notAllowedDomainMessage = "must be one of the organization's allowed_email_domains";

/** The reservation kind that makes a verified email domain one organization's in its environment. */
export const verifiedDomainReservationKind = 'verifiedEmailDomain';

const verificationOf = (state: DomainsHolder, emailDomain: string) =>
  state.domain_verifications.find((verification) => verification.email_domain === emailDomain);

/** The email domains the organization has verified. */
export const verifiedDomains = (state: DomainsHolder) =>
  state.domain_verifications.filter(({ status }) => status === 'verified').map(({ email_domain }) => email_domain);

function checkAllowed(state: DomainsHolder, emailDomain: string): void {
  if (!state.allowed_email_domains.includes(emailDomain)) fail(fieldError('email_domain', notAllowedDomainMessage));
}

/** Equal in constant time: both sides are hashed first, so neither their length nor their content shows in the timing. */
function sameValue(published: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(published), digest(expected));
}

/** Why a lookup does not verify `token`, or null when one of its records is the verification's value. */
export function lookupFailure(lookup: TxtLookup, token: string): DomainVerificationFailureReason | null {
  if (lookup.outcome === 'failed') return 'lookup_failed';
  if (lookup.outcome === 'not_found' || lookup.records.length === 0) return 'record_not_found';
  const expected = domainVerificationRecordValue(token);
  // Every record is compared (no early exit), so the timing does not tell which one matched.
  let matched = false;
  for (const record of lookup.records) matched = sameValue(record.trim(), expected) || matched;
  return matched ? null : 'record_mismatch';
}

/**
 * Starts the verification of an allowed email domain: the token arrives in the command (random,
 * drawn by the handler). A pending or verified domain keeps its verification: starting again
 * changes nothing, so the record already published stays the right one.
 */
export function startDomainVerification(
  state: DomainsHolder,
  data: Extract<DomainVerificationCommand, { type: 'StartDomainVerification' }>['data'],
): OrganizationEvent[] {
  checkAllowed(state, data.email_domain);
  if (verificationOf(state, data.email_domain)) return [];
  return [{ type: 'DomainVerificationStarted', data }];
}

/**
 * The verification a DNS check of `email_domain` is for, refused when the domain is not allowed or
 * no verification was started: what the handler checks before it asks the resolver anything.
 */
export function verificationToCheck(state: DomainsHolder, emailDomain: string): DomainVerificationRecord {
  checkAllowed(state, emailDomain);
  const verification = verificationOf(state, emailDomain);
  if (!verification) fail(catalogueError('domain_verification_not_started'));
  return verification;
}

/** Checks what the resolver found against the started verification: verified, or a failure with its reason. */
export function verifyDomain(
  state: DomainsHolder,
  data: Extract<DomainVerificationCommand, { type: 'VerifyDomain' }>['data'],
): OrganizationEvent[] {
  const { email_domain, lookup, at } = data;
  const verification = verificationToCheck(state, email_domain);
  // Verified already (a pending verification always has its token).
  if (verification.status === 'verified' || verification.token === null) return [];
  const reason = lookupFailure(lookup, verification.token);
  if (reason) return [{ type: 'DomainVerificationFailed', data: { email_domain, reason, at } }];
  return [{ type: 'DomainVerified', data: { email_domain, method: 'dns_txt', at } }];
}

/** The vendor's word that the organization owns the domain: production organizations only (a production key). */
export function assertDomain(
  state: DomainsHolder,
  data: Extract<DomainVerificationCommand, { type: 'AssertDomain' }>['data'],
): OrganizationEvent[] {
  if (state.environment !== 'production') fail(catalogueError('domain_assertion_requires_production'));
  checkAllowed(state, data.email_domain);
  if (verificationOf(state, data.email_domain)?.status === 'verified') return [];
  return [{ type: 'DomainVerified', data: { email_domain: data.email_domain, method: 'vendor_assertion', at: data.at } }];
}

/** The verifications after a domain verification event. */
export function evolveDomainVerifications(
  verifications: DomainVerificationRecord[],
  event: Extract<OrganizationEvent, { type: 'DomainVerificationStarted' | 'DomainVerified' | 'DomainVerificationFailed' }>,
): DomainVerificationRecord[] {
  const { email_domain, at } = event.data;
  const others = verifications.filter((verification) => verification.email_domain !== email_domain);
  const current = verifications.find((verification) => verification.email_domain === email_domain);
  switch (event.type) {
    case 'DomainVerificationStarted':
      return [
        ...others,
        {
          email_domain,
          token: event.data.token,
          status: 'pending',
          method: null,
          started_at: at,
          verified_at: null,
          last_failure: null,
        },
      ];
    case 'DomainVerified':
      return [
        ...others,
        {
          email_domain,
          token: current?.token ?? null,
          started_at: current?.started_at ?? null,
          last_failure: current?.last_failure ?? null,
          status: 'verified',
          method: event.data.method,
          verified_at: at,
        },
      ];
    case 'DomainVerificationFailed':
      return current ? [...others, { ...current, last_failure: { reason: event.data.reason, at } }] : verifications;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** A domain taken out of `allowed_email_domains` loses its verification (and gives its reservation back). */
export const keepAllowed = (verifications: DomainVerificationRecord[], allowed: string[]) =>
  verifications.filter(({ email_domain }) => allowed.includes(email_domain));

const failureCodes = {
  record_not_found: 'domain_verification_record_not_found',
  record_mismatch: 'domain_verification_record_mismatch',
  lookup_failed: 'domain_verification_lookup_failed',
} as const;

/** The answer to a DNS check that failed, naming where the record is looked for. */
export function verificationFailureError(reason: DomainVerificationFailureReason, emailDomain: string): AppError {
  const name = domainVerificationRecordName(emailDomain);
  const messages: Record<DomainVerificationFailureReason, string> = {
    record_not_found: `No TXT record at ${name}: publish the record of the verification, then verify again (a new record can take a few minutes to reach every DNS server)`,
    record_mismatch: `The TXT records at ${name} do not hold this verification's value: publish the value the verification answered, exactly`,
    lookup_failed: `The DNS lookup of ${name} failed: retry in a moment`,
  };
  return catalogueError(failureCodes[reason], messages[reason]);
}
