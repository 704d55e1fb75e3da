import type { RateLimitRule, RpcInput } from '@sesame/contracts';

/** What a request can be counted by, beyond its validated input. */
export interface RequestIdentity {
  ip: string;
  scimToken?: string | undefined;
  /** The onboarding session cookie of an onboarding-page call. */
  onboardingSession?: string | undefined;
}

const field = (section: unknown, name: string): unknown =>
  typeof section === 'object' && section !== null ? (section as Record<string, unknown>)[name] : undefined;

function partOf(part: RateLimitRule['by'][number], identity: RequestIdentity, input: RpcInput): string | undefined {
  if (part === 'ip') return identity.ip;
  if (part === 'scim_token') return identity.scimToken;
  if (part === 'onboarding_session') return identity.onboardingSession;
  const [section, name] = [part.slice(0, part.indexOf('.')), part.slice(part.indexOf('.') + 1)];
  const value = field(section === 'body' ? input.body : input.params, name);
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim().toLowerCase() : undefined;
}

/**
 * The key a request is counted under for a rule: its parts, case-insensitive, or null when the
 * first part is absent (a token request without `client_id` is not counted per client).
 */
export function rateLimitKey(rule: RateLimitRule, identity: RequestIdentity, input: RpcInput): string | null {
  const parts = rule.by.map((part) => partOf(part, identity, input) ?? '');
  return parts[0] ? parts.join('\n') : null;
}
