import { siteConfig, storageKeys } from './site-config';

/**
 * Runs before the first paint and before the site's scripts: normalizes `.html` addresses,
 * applies the stored colour theme (light unless the visitor chose
 * dark; the system preference is not consulted) and hides a dismissed announcement bar.
 */
export function initialScript(): string {
  const announcementId = siteConfig.announcement?.id ?? '';
  // The `.html` forms of a path are rewritten before the router reads the address.
  return `(function(){var n=(${normalizeHtmlPath.toString()})(location.pathname);if(n)history.replaceState(history.state,'',n+location.search+location.hash);})();(function(){var d=document.documentElement;try{var t=localStorage.getItem(${JSON.stringify(storageKeys.theme)});d.dataset.theme=t==='dark'?'dark':'light';if(${JSON.stringify(announcementId)}&&localStorage.getItem(${JSON.stringify(storageKeys.announcementDismissed)})===${JSON.stringify(announcementId)})d.dataset.announcementDismissed='true';}catch(e){d.dataset.theme='light';}})();`;
}

/** The analytics script tag, loaded with `defer`, when an address is configured. */
export function analyticsScript(src: string): { src: string; defer: true } | null {
  return src ? { src, defer: true } : null;
}

/**
 * Paths ending in `index.html` or `.html` are the same page as the path without that suffix:
 * the address is rewritten before the router starts, so the right page is hydrated.
 * Self-contained: its source is inlined in the page's `<head>`.
 */
export function normalizeHtmlPath(pathname: string): string | null {
  if (pathname.endsWith('/index.html')) return pathname.slice(0, -'index.html'.length);
  if (pathname.endsWith('.html') && !/\/404\.html$/.test(pathname)) return `${pathname.slice(0, -'.html'.length)}/`;
  return null;
}
