import { onboardingSessionCookie } from '@sesame/contracts';

/**
 * The `Set-Cookie` of an onboarding session: HttpOnly (the page's scripts never see it),
 * SameSite=Strict (no other site's page sends it), sent only to the invitation endpoints, Secure
 * when Sesame is served over https, kept by the browser until the session's latest end.
 */
export function onboardingSessionSetCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${onboardingSessionCookie.name}=${value}`,
    `Path=${onboardingSessionCookie.path}`,
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The `Set-Cookie` that removes the session's cookie from the browser (the session ended). */
export const endedOnboardingSessionSetCookie = (secure: boolean) => onboardingSessionSetCookie('', 0, secure);
