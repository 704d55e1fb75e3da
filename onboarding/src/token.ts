/**
 * The invitation link's token, taken from `?token=` and removed from the address bar at once (so
 * it stays out of the history and of shared screenshots). It is not kept: it works once, and the
 * session it opens (an HttpOnly cookie) is what the page uses afterwards.
 */
export function takeInvitationToken(location: Location, history: History): string | null {
  const url = new URL(location.href);
  const token = url.searchParams.get('token');
  if (token === null) return null;
  url.searchParams.delete('token');
  history.replaceState(null, '', url.pathname + url.search + url.hash);
  return token;
}
