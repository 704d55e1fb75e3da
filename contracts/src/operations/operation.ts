import type { z } from '../zod';
import type { ErrorCode } from '../common/errors';
import type { Scope } from '../common/scopes';
import type { OnboardingSetup } from '../entities/admin.schema';
import type { RateLimitRule } from './rate-limits';
import type { OperationExamples } from './operation-examples';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Tags of the API reference, grouped as SPEC.md section 2 says (see `tagGroups`). */
export const apiTags = [
  'Organizations',
  'Users',
  'Directory Syncs',
  'SSO',
  'Password',
  'Magic Link',
  'TOTP',
  'Admins',
  'Webhook Setup',
  'Webhook Events',
  'Events',
  'Redirect URIs',
  'Token',
  'Groups',
  'Gateway Management',
] as const;
export type ApiTag = (typeof apiTags)[number];

export const tagGroups: { name: string; tags: ApiTag[] }[] = [
  { name: 'User Directories', tags: ['Organizations', 'Users', 'Directory Syncs'] },
  { name: 'Authentications', tags: ['SSO', 'Password', 'Magic Link', 'TOTP'] },
  { name: 'Admins', tags: ['Admins'] },
  { name: 'Others', tags: ['Webhook Setup', 'Webhook Events', 'Events', 'Redirect URIs', 'Token'] },
  { name: 'Groups', tags: ['Groups'] },
  { name: 'Gateway Management', tags: ['Gateway Management'] },
];

type Schema = z.ZodType;

/**
 * One HTTP operation of the gateway: the single source for its route, its input validation,
 * its privileges, the NATS subject that serves it and its OpenAPI entry.
 */
export interface Operation<
  P extends Schema = Schema,
  Q extends Schema = Schema,
  B extends Schema = Schema,
  R extends Schema = Schema,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/v2/organizations/{org_domain}`. */
  path: string;
  /** Other paths served identically (not documented separately unless `documentAliases`). */
  aliases?: string[];
  /** The aliases are documented too, each as its own path (operationId suffixed `Alias`): the ones guides send people to. */
  documentAliases?: true;
  tag: ApiTag;
  summary: string;
  description?: string;
  /**
   * `api_key`: a Bearer access token of an API key holding `scope`; `none`: public;
   * `scim`: the Bearer token of a directory sync, checked by the directory-sync service;
   * `admin_invitation`: the onboarding session cookie that opening an IT-admin invitation link
   * sets (the onboarding page). The gateway asks identity to check the session (which also
   * pushes back its idle expiry), and calls `subject` (a service subject) with the body fields,
   * `organization_domain` and `environment` of the invitation, `admin_id` and `session_id`: the
   * scope always comes from the session, never from the body.
   */
  auth: 'api_key' | 'none' | 'scim' | 'admin_invitation';
  scope?: Scope;
  /**
   * `admin_invitation` operations that set something up: identity refuses the session (403
   * `onboarding_setup_not_allowed`) unless the invitation allows this setup.
   */
  onboardingSetup?: OnboardingSetup;
  /**
   * Calls only Sesame's own pages make (the onboarding page): the gateway refuses with 403
   * `cross_site_request` a request whose `Origin` is not that of `SESAME_PUBLIC_URL`, or whose
   * `Sec-Fetch-Site` is `cross-site` or `same-site` (CSRF; the session cookie is also `SameSite=Strict`).
   */
  sameOrigin?: true;
  subject: string;
  request: { params?: P; query?: Q; body?: B };
  /** `contentType` defaults to `application/json` (XML metadata and HTML pages of browser endpoints differ). */
  response: {
    status: number;
    description: string;
    schema: R;
    contentType?: string;
    /** Other successful answers with the same schema (a browser endpoint's page instead of its redirect). */
    others?: { status: number; description: string }[];
  };
  /**
   * The answer is streamed, one JSON line per item (`application/x-ndjson`): `subject` answers
   * pages `{ data, list_metadata: { after, has_more } }` of the query plus `after`, the gateway
   * writes each page's items and asks the next page once the response has drained (bounded memory,
   * back-pressure). An error after the first line ends the stream with a last line
   * `{ "error": { type, message, doc_urls }, "after": <cursor of the last line written> }`.
   */
  streamPages?: true;
  /** Documented error answers, beyond the transport ones every operation can give. */
  errors: ErrorCode[];
  /** Error body style: the API's two shapes, the OAuth shape (token endpoint) or the SCIM shape (RFC 7644, `application/scim+json`). */
  errorStyle?: 'api' | 'oauth' | 'scim';
  /**
   * Budgets each request spends (after validation), shared by every gateway replica. Over any of
   * them the gateway answers 429 with `Retry-After`: `rate_limited` (OAuth: `slow_down`; SCIM: status 429).
   */
  rateLimits?: RateLimitRule[];
  /** Request, success and error examples of the API reference (validated against the schemas above by a unit test). */
  examples: OperationExamples;
}

export function defineOperation<P extends Schema, Q extends Schema, B extends Schema, R extends Schema>(
  operation: Operation<P, Q, B, R>,
): Operation<P, Q, B, R> {
  return operation;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a service receives for an operation, after validation. */
export interface OperationInput<O extends Operation> {
  params: Infer<NonNullable<O['request']['params']>>;
  query: Infer<NonNullable<O['request']['query']>>;
  body: Infer<NonNullable<O['request']['body']>>;
}

export type OperationResult<O extends Operation> = z.input<O['response']['schema']>;
