const key = 'sesame.onboarding.invitation';

/**
 * The invitation token: taken from the link's `?token=`, then kept for this tab only and
 * removed from the address bar (so it stays out of the history and of shared screenshots).
 */
export function takeInvitationToken(location: Location, history: History, storage: Storage): string | null {
  const url = new URL(location.href);
  const fromLink = url.searchParams.get('token');
  if (fromLink) {
    storage.setItem(key, fromLink);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromLink;
  }
  return storage.getItem(key);
}
