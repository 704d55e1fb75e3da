const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `url` cannot be a redirect URI, or null when it can: an absolute http(s) URL without
 * fragment; in production, http only for localhost (SPEC.md, issue 3).
 */
export function redirectUrlProblem(url: string, production: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an http or https URL';
  if (!parsed.hostname) return 'is not a valid absolute URL';
  if (parsed.hash || url.includes('#')) return 'must not contain a fragment (#...)';
  if (parsed.username || parsed.password) return 'must not contain credentials';
  if (production && parsed.protocol === 'http:' && !loopbackHosts.has(parsed.hostname))
    return 'must use https: http is allowed only for localhost in production';
  return null;
}
