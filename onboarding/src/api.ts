import type {
  Admin,
  AdminInvitation,
  DirectorySync,
  DirectorySyncStatus,
  DomainVerification,
  SsoConnection,
} from '@sesame/contracts';
import type { DirectoryProvider } from './directory-providers';
import type { InvitationProblem } from './i18n';
import type { SsoProviderType } from './providers';

/**
 * What the identity service answers when the link or the session cannot be used (contracts:
 * `adminInvitationMessages` on `token`, `onboardingSessionMessages` with 401), and what each means here.
 */
export const problemOfMessage: Record<string, InvitationProblem> = {
  "can't be blank": 'missing',
  'is invalid': 'invalid',
  'has already been used: the link works once, ask for a new one': 'used',
  'has expired: ask for a new link': 'expired',
  'has been revoked: ask for a new link': 'revoked',
  'has been declined: ask to be invited again': 'declined',
  'Open the link of your invitation email: this call needs the onboarding session it opens in your browser': 'missing',
  'Your onboarding session has ended: ask for a new invitation link': 'sessionEnded',
  'Your onboarding session has expired: ask for a new invitation link': 'sessionExpired',
};

/**
 * A refused call: `problem` when the link or the session can no longer be used (or the service
 * is unreachable), else the field errors of what was sent (e.g. the metadata).
 */
export interface Failure {
  ok: false;
  problem: InvitationProblem | null;
  fields: Record<string, string[]>;
  /** The error's type when the service refused what was asked, not the session (a domain another organization verified). */
  code?: string;
}
export type Answer<T> = { ok: true; body: T } | Failure;

export function failureOf(status: number, body: unknown): Failure {
  if (status >= 500 || status === 429) return { ok: false, problem: 'unavailable', fields: {} };
  const answer = body as { errors?: Record<string, string[]>; error?: { type?: string; message?: string } } | null;
  const fields = answer?.errors ?? {};
  const token = fields.token?.[0];
  if (token !== undefined) return { ok: false, problem: problemOfMessage[token] ?? 'invalid', fields };
  if (status === 401 && answer?.error?.type === 'onboarding_session_required')
    return { ok: false, problem: problemOfMessage[answer.error.message ?? ''] ?? 'sessionEnded', fields: {} };
  const code = answer?.error?.type;
  if ((status === 422 || status === 409) && code) return { ok: false, problem: null, fields, code };
  if (status === 422) return { ok: false, problem: null, fields };
  return { ok: false, problem: 'invalid', fields: {} };
}

/**
 * Sends a JSON call to an invitation endpoint of the gateway. The browser adds the onboarding
 * session cookie (HttpOnly: this page never sees it) and the page's `Origin`.
 */
async function send<T>(method: 'POST' | 'PUT', path: string, body: Record<string, unknown> = {}): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, problem: 'unavailable', fields: {} };
  }
  const json = (await response.json().catch(() => null)) as unknown;
  return response.ok ? { ok: true, body: json as T } : failureOf(response.status, json);
}

const invitations = '/api/v2/admin-invitations';

/** Uses up the emailed link: the session it opens in this browser is the page's from then on. */
export const openInvitation = (token: string) => send<AdminInvitation>('POST', `${invitations}/open`, { token });
/** The session this browser already has (a reload, the way back from a test sign-in). */
export const currentSession = () => send<AdminInvitation>('POST', `${invitations}/session`);

/**
 * How the page starts: with the link's token, open it; without one, or when the link was
 * already used (opened again in the browser that opened it), go on with this browser's session.
 */
export async function startOnboarding(token: string | null): Promise<Answer<AdminInvitation>> {
  if (!token) return currentSession();
  const opened = await openInvitation(token);
  if (opened.ok || opened.problem !== 'used') return opened;
  const current = await currentSession();
  return current.ok ? current : opened;
}

export const answerInvitation = (choice: 'accept' | 'decline') => send<Admin>('POST', `${invitations}/${choice}`);

export type SamlConfig = SsoConnection['saml_config'];
export const spSettings = () =>
  send<{ sp_id: string; saml_config: SamlConfig; oidc_redirect_uri: string }>('POST', `${invitations}/sso/sp-settings`);
export const ssoConnection = () => send<{ sso_connection: SsoConnection | null }>('POST', `${invitations}/sso/connection`);
export interface TestResult {
  status: 'pending' | 'succeeded' | 'failed';
  name_id: string | null;
  email: string | null;
  attributes: Record<string, string[]>;
  profile: Record<string, unknown>;
  reason: string | null;
  message: string | null;
}
/** The onboarding page itself: where the browser comes back after a test sign-in. */
export const onboardingPageUrl = (origin: string) => `${origin}/onboarding/admin-invitation`;
export const startSsoTest = (return_url: string) =>
  send<{ request_id: string; authorization_url: string }>('POST', `${invitations}/sso/test`, { return_url });
export const ssoTestResult = (request_id: string) => send<TestResult>('POST', `${invitations}/sso/test-result`, { request_id });
export const saveSsoConnection = (provider_type: SsoProviderType, metadata: string) =>
  send<SsoConnection>('PUT', `${invitations}/sso/connection`, { provider_type, metadata });
/** An OIDC client: without `oidc_client_secret`, the one recorded is kept. */
export interface OidcClient {
  oidc_issuer: string;
  oidc_client_id: string;
  oidc_client_secret?: string;
}
export const saveOidcConnection = (provider_type: SsoProviderType, client: OidcClient) =>
  send<SsoConnection>('PUT', `${invitations}/sso/connection`, { type: 'oidc', provider_type, ...client });

const directory = `${invitations}/directory-sync`;
export const directorySync = () => send<{ directory_sync: DirectorySync | null }>('POST', `${directory}/connection`);
/** Creates the directory sync (its token's value in this answer only), or changes its provider. */
export const setUpDirectorySync = (provider_type: DirectoryProvider) =>
  send<DirectorySync>('PUT', `${directory}/connection`, { provider_type });
export const rotateDirectorySyncToken = () => send<DirectorySync>('POST', `${directory}/rotate-token`);
export const directorySyncStatus = () => send<DirectorySyncStatus>('POST', `${directory}/status`);

const domains = `${invitations}/domains`;
export const domainVerifications = () => send<{ data: DomainVerification[] }>('POST', `${domains}/list`);
/** Starts the verification of an email domain: the TXT record to publish (the same when started again). */
export const startDomainVerification = (email_domain: string) =>
  send<DomainVerification>('POST', `${domains}/start`, { email_domain });
/** The "verify now" button: Sesame reads the TXT record at once. */
export const verifyDomain = (email_domain: string) => send<DomainVerification>('POST', `${domains}/verify`, { email_domain });
