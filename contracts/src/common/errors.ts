import { z } from '../zod';

/** `{ error: { type, message, doc_urls } }`: SPEC.md section 8, first shape. */
export const errorBodySchema = z
  .object({
    error: z.object({ type: z.string(), message: z.string(), doc_urls: z.array(z.string()) }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** `{ errors: { field: [messages] } }`: SPEC.md section 8, second shape (always 422). */
export const fieldErrorsBodySchema = z.object({ errors: z.record(z.string(), z.array(z.string())) }).meta({ id: 'FieldErrors' });
export type FieldErrorsBody = z.infer<typeof fieldErrorsBodySchema>;

/** RFC 6749 section 5.2 error answer of the token endpoint. */
export const oauthErrorBodySchema = z.object({ error: z.string(), error_description: z.string() }).meta({ id: 'OAuthError' });
export type OAuthErrorBody = z.infer<typeof oauthErrorBodySchema>;

/**
 * The error catalogue: SPEC.md section 8 plus the transport errors every HTTP API needs.
 * `docPath` is relative to the documentation site.
 */
export const errorCatalogue = {
  bad_request: { status: 400, message: 'Malformed request', docPath: '/api' },
  invalid_consistency_token: {
    status: 400,
    message: 'The Sesame-Consistency-Token header must be a token a write answered',
    docPath: '/how-to-use-api-key#read-your-writes',
  },
  invalid_idempotency_key: {
    status: 400,
    message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters',
    docPath: '/how-to-use-api-key#idempotent-requests',
  },
  unauthorized: { status: 401, message: 'Missing an api key with the requested privilegies', docPath: '/how-to-use-api-key' },
  invalid_code: { status: 401, message: 'Invalid Code', docPath: '/implement-multi-factor-authentication-mfa' },
  inactive_totp: {
    status: 403,
    message: 'Your TOTP strategy is inactive',
    docPath: '/implement-multi-factor-authentication-mfa',
  },
  onboarding_session_required: {
    status: 401,
    message: 'Open the link of your invitation email: this call needs the onboarding session it opens in your browser',
    docPath: '/it-admin-onboarding',
  },
  forbidden: { status: 403, message: 'Forbidden', docPath: '/api' },
  authn_connection_not_allowed: {
    status: 403,
    message: "This sign-in method is not in the organization's allowed_authn_connections",
    docPath: '/single-sign-on#sign-in-methods-allowed-per-organization',
  },
  relay_source_not_allowed: {
    status: 403,
    message: "The user's organization is not among the source_organizations of this relay",
    docPath: '/relays#relay-a-user',
  },
  relay_account_not_linked: {
    status: 403,
    message:
      'The partner organization has an account with this email that is not linked to this user, and the email is not verified',
    docPath: '/relays#relay-a-user',
  },
  user_limit_reached: {
    status: 403,
    message: "The plan's limit on the number of users is reached: delete users or raise the limit before creating more",
    docPath: '/how-to-use-api-key#plan-limit-on-the-number-of-users',
  },
  onboarding_setup_not_allowed: {
    status: 403,
    message: 'Your invitation does not let you set this up: ask the vendor for an invitation that does',
    docPath: '/it-admin-onboarding',
  },
  cross_site_request: {
    status: 403,
    message: 'Cross-site request refused: only the onboarding page of this Sesame may make this call',
    docPath: '/it-admin-onboarding',
  },
  domain_assertion_requires_production: {
    status: 403,
    message:
      'Only a production API key can assert that an organization owns a domain: in sandbox, publish the TXT record and verify it (unverified domains route by email in sandbox already)',
    docPath: '/domain-verification#vendor-assertion',
  },
  resource_not_found: { status: 404, message: 'Resource Not Found', docPath: '/api' },
  method_not_allowed: { status: 405, message: 'Method Not Allowed', docPath: '/api' },
  conflict: { status: 409, message: 'The resource was changed by another request, please retry', docPath: '/api' },
  idempotency_request_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress: retry later to get its answer',
    docPath: '/how-to-use-api-key#idempotent-requests',
  },
  directory_sync_already_exists: { status: 409, message: 'A directory sync already exists', docPath: '/directory-sync' },
  password_connection_already_exists: {
    status: 409,
    message: 'A password connection already exists',
    docPath: '/password',
  },
  sso_connection_already_exists: { status: 409, message: 'An SSO connection already exists', docPath: '/single-sign-on' },
  domain_verified_by_another_organization: {
    status: 409,
    message:
      'Another organization of this environment has verified this domain: it must remove the domain from its allowed_email_domains, or be deleted, before this one can verify it',
    docPath: '/domain-verification#one-organization-per-verified-domain',
  },
  payload_too_large: { status: 413, message: 'Request body is too large', docPath: '/api' },
  uri_too_long: { status: 414, message: 'Request URI is too long', docPath: '/api' },
  unsupported_media_type: {
    status: 415,
    message: 'Unsupported Media Type: send application/json or application/x-www-form-urlencoded',
    docPath: '/api',
  },
  missing_relay_id: { status: 422, message: 'You should provide a valid `relay_id`.', docPath: '/api' },
  missing_access_token: {
    status: 422,
    message: 'You should provide the current `access_token` of the user you want to redirect.',
    docPath: '/api',
  },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was used with another request: send a new key for a different request',
    docPath: '/how-to-use-api-key#idempotent-requests',
  },
  domain_verification_not_started: {
    status: 422,
    message: 'No verification of this domain was started: start one to get the TXT record to publish',
    docPath: '/domain-verification',
  },
  domain_verification_record_not_found: {
    status: 422,
    message:
      'No TXT record at the name of the verification: publish it, then verify again (a new record can take a few minutes to reach every DNS server)',
    docPath: '/domain-verification#troubleshooting',
  },
  domain_verification_record_mismatch: {
    status: 422,
    message:
      "The TXT records at the name of the verification do not hold this verification's value: publish the value the verification answered, exactly",
    docPath: '/domain-verification#troubleshooting',
  },
  domain_verification_lookup_failed: {
    status: 422,
    message: "The DNS lookup of the verification's TXT record failed: retry in a moment",
    docPath: '/domain-verification#troubleshooting',
  },
  unknown_password_code: { status: 422, message: 'The provided password_code is not valid...', docPath: '/password' },
  too_many_requests: { status: 429, message: 'Too Many Requests', docPath: '/api' },
  rate_limited: {
    status: 429,
    message: 'Too many requests: retry after the number of seconds in the Retry-After header',
    docPath: '/api',
  },
  headers_too_large: { status: 431, message: 'Request headers are too large', docPath: '/api' },
  internal_server_error: { status: 500, message: 'Internal Server Error', docPath: '/api' },
  service_unavailable: { status: 503, message: 'Service Unavailable', docPath: '/api' },
} as const satisfies Record<string, { status: number; message: string; docPath: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** OAuth errors of the token endpoint (RFC 6749 section 5.2). */
export const oauthErrorCatalogue = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  /** An `audience` this server does not issue tokens for (RFC 8707 section 2, registered for the token endpoint). */
  invalid_target: 400,
  /** Over a rate limit (RFC 8628 section 3.5's token-endpoint code for "too fast"), with `Retry-After`. */
  slow_down: 429,
} as const;
export type OAuthErrorCode = keyof typeof oauthErrorCatalogue;

/**
 * Field refusals other services branch on, with the message the API shows for them. A field error
 * made with `refusedField` carries its reason code next to the message (`reason` on the wire), so
 * a caller tests the code, never the English text.
 */
export const fieldRefusals = {
  /** A value that must be unique (an email, a domain, an id) is held by another resource. */
  taken: 'has already been taken',
} as const;
export type FieldRefusal = keyof typeof fieldRefusals;

/**
 * What a service answers instead of a result. The gateway turns it into one of the two HTTP
 * shapes (or the OAuth shape on the token endpoint); the kind decides which.
 */
export type AppError =
  | { kind: 'fields'; fields: Record<string, string[]>; reason?: FieldRefusal }
  | { kind: 'error'; code: ErrorCode; message?: string }
  | { kind: 'oauth'; code: OAuthErrorCode; description: string }
  | { kind: 'scim'; status: number; scimType?: ScimErrorType; detail: string };

/** `scimType` values of RFC 7644 section 3.12. */
export const scimErrorTypes = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
] as const;
export type ScimErrorType = (typeof scimErrorTypes)[number];

export const scimErrorSchemaUrn = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 section 3.12 error answer of the SCIM endpoints (`status` is a string there). */
export const scimErrorBodySchema = z
  .object({
    schemas: z.array(z.literal(scimErrorSchemaUrn)),
    status: z.string(),
    scimType: z.enum(scimErrorTypes).optional(),
    detail: z.string(),
  })
  .meta({ id: 'ScimError' });
export type ScimErrorBody = z.infer<typeof scimErrorBodySchema>;

export const fieldError = (field: string, message: string): AppError => ({
  kind: 'fields',
  fields: { [field]: [message] },
});
/** A 422 on `field` for a known refusal: the catalogue's message, and its code in `reason`. */
export const refusedField = (field: string, reason: FieldRefusal): AppError => ({
  kind: 'fields',
  fields: { [field]: [fieldRefusals[reason]] },
  reason,
});
export const catalogueError = (code: ErrorCode, message?: string): AppError =>
  message === undefined ? { kind: 'error', code } : { kind: 'error', code, message };
export const scimError = (status: number, detail: string, scimType?: ScimErrorType): AppError =>
  scimType === undefined ? { kind: 'scim', status, detail } : { kind: 'scim', status, scimType, detail };
export const oauthError = (code: OAuthErrorCode, description: string): AppError => ({
  kind: 'oauth',
  code,
  description,
});

/**
 * The stable code of a refusal, what callers branch on: the catalogue code, the field refusal
 * (`reason`, set by `refusedField`), the OAuth code or the SCIM type; never the message text.
 */
export type RefusalReason = ErrorCode | FieldRefusal | OAuthErrorCode | ScimErrorType;
export function reasonOf(error: AppError): RefusalReason | undefined {
  if (error.kind === 'error' || error.kind === 'oauth') return error.code;
  if (error.kind === 'scim') return error.scimType;
  return error.reason;
}

export function statusOf(error: AppError): number {
  if (error.kind === 'fields') return 422;
  if (error.kind === 'oauth') return oauthErrorCatalogue[error.code];
  if (error.kind === 'scim') return error.status;
  return errorCatalogue[error.code].status;
}

/** Field errors from a zod failure, keyed by dotted path (`profile.birthdate`), `base` for the root. */
export function fieldErrorsFromZod(error: z.ZodError, prefix?: string): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const key = [prefix, path].filter(Boolean).join('.') || 'base';
    const messages = (fields[key] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return fields;
}
