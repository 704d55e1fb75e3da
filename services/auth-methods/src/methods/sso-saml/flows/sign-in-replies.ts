import { DomainError } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { errorPage, redirectTo, withQuery } from './browser-replies';
import { refusalMessages } from './refusals';
import type { SignInRefused } from './refusals';

/** Where a refused sign-in sends the user: the application, once we know which request it answers. */
export interface Target {
  redirect_uri: string;
  request_id?: string;
  /** A test sign-in of the onboarding page. */
  test?: boolean;
}

/** A refused sign-in: logged with its reason, then a page, or the application told `access_denied`. */
export function refused(
  context: RequestContext,
  refusal: Pick<SignInRefused, 'reason' | 'detail'>,
  target: Target | null = null,
) {
  context.logger.warn({ reason: refusal.reason, detail: refusal.detail }, 'SAML sign-in refused');
  const message = refusalMessages[refusal.reason];
  if (!target) return errorPage({ refusal: refusal.reason }, context.meta);
  if (target.test) return redirectTo(withQuery(target.redirect_uri, { request_id: target.request_id ?? '', sso_test: 'failed' }));
  return redirectTo(
    withQuery(target.redirect_uri, {
      error: 'access_denied',
      error_description: message,
      ...(target.request_id ? { request_id: target.request_id } : {}),
    }),
  );
}

/**
 * Anything but a refusal: an organization gone from identity is "SSO not available", identity
 * unreachable a 503 page, anything else a 500 page; the cause is logged, never shown.
 */
export function failedPage(context: RequestContext, error: unknown) {
  const appError = error instanceof DomainError && error.error.kind === 'error' ? error.error : null;
  if (appError?.code === 'resource_not_found')
    return refused(context, { reason: 'connection_unavailable', detail: 'the organization is unknown to identity' });
  context.logger.error({ err: error }, 'SAML sign-in failed');
  if (appError?.code === 'service_unavailable') return errorPage('sso_unavailable', context.meta, 503);
  return errorPage('internal_error', context.meta, 500);
}
