/**
 * Request budgets of the gateway (DESIGN.md section 6: rate limits on challenges and token
 * endpoints). Each has a default of `limit` requests per `windowSeconds`, changed with the
 * environment variable `SESAME_RATE_LIMIT_<NAME>` (`<requests>/<seconds>` or `off`).
 */
export const rateLimitDefaults = {
  /** `POST /oauth/token`, per `client_id` (sent in the body or with HTTP Basic). */
  token_client: { limit: 300, windowSeconds: 60 },
  /** `POST /oauth/token`, per client address. */
  token_ip: { limit: 600, windowSeconds: 60 },
  /** Password challenges, per email and organization. */
  password_challenge_email: { limit: 10, windowSeconds: 60 },
  /** Password reset emails, per email and organization. */
  password_request_email: { limit: 10, windowSeconds: 600 },
  /** Password challenges and reset requests, per client address (the integrator's backend). */
  password_ip: { limit: 600, windowSeconds: 60 },
  /** Magic-link emails, per email. */
  magic_link_email: { limit: 10, windowSeconds: 600 },
  /** Magic-link challenges, per client address. */
  magic_link_ip: { limit: 300, windowSeconds: 60 },
  /** TOTP challenge creation, challenge validation and enrollment validation, per user. */
  totp_user: { limit: 30, windowSeconds: 60 },
  /** SAML challenges, browser redirects, ACS and single logout, per client address. */
  sso_ip: { limit: 600, windowSeconds: 60 },
  /** SCIM requests, per directory-sync bearer token. */
  scim_token: { limit: 6_000, windowSeconds: 60 },
  /** Uses of an IT-admin invitation link (opening it), or calls of the onboarding session it opened, per link or session. */
  invitation_token: { limit: 120, windowSeconds: 60 },
  /** Invitation links opened and onboarding-session calls, per client address (guessing links or sessions). */
  invitation_ip: { limit: 300, windowSeconds: 60 },
} as const satisfies Record<string, { limit: number; windowSeconds: number }>;

export type RateLimitName = keyof typeof rateLimitDefaults;
export const rateLimitNames = Object.keys(rateLimitDefaults) as RateLimitName[];

/** Longest window a budget may have: the gateway's counters are kept twice as long. */
export const maxRateLimitWindowSeconds = 3_600;

/**
 * What a request is counted by: the client address, the directory-sync bearer token, the
 * onboarding-session cookie, or a field of the validated body or path parameters (case-insensitive).
 */
export type RateLimitKeyPart = 'ip' | 'scim_token' | 'onboarding_session' | `body.${string}` | `params.${string}`;

/** One budget an operation spends from. The request is not counted by it when the first part of `by` is absent. */
export interface RateLimitRule {
  limit: RateLimitName;
  by: RateLimitKeyPart[];
}

export const perIp = (limit: RateLimitName): RateLimitRule => ({ limit, by: ['ip'] });

/** Opening an IT-admin invitation link (its token in the body), per token and per client address. */
export const invitationLinkRateLimits: RateLimitRule[] = [
  { limit: 'invitation_token', by: ['body.token'] },
  perIp('invitation_ip'),
];

/** The onboarding page's calls with the session cookie, per session and per client address. */
export const onboardingSessionRateLimits: RateLimitRule[] = [
  { limit: 'invitation_token', by: ['onboarding_session'] },
  perIp('invitation_ip'),
];
