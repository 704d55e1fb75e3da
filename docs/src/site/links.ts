/**
 * Build-time link checks over the generated HTML (SPEC.md section 2: broken links fail the build;
 * broken anchors only warn).
 */

export interface BuiltPage {
  /** URL path of the page, e.g. `/fr/password/`. */
  path: string;
  html: string;
}

export interface LinkReport {
  brokenLinks: { page: string; href: string }[];
  brokenAnchors: { page: string; href: string }[];
}

const hrefPattern = /<a\s[^>]*?href="([^"]*)"/g;
const idPattern = /\sid="([^"]+)"/g;

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');
}

/** Normalizes a site path as the static server does (`/x.html` and `/x/index.html` are `/x/`). */
export function normalizePath(path: string): string {
  let result = path.replace(/\/index\.html$/, '/').replace(/\.html$/, '/');
  if (!result.endsWith('/') && !/\.[a-z0-9]+$/i.test(result)) result += '/';
  return result;
}

/**
 * Finds links between pages of the site that lead nowhere, and anchors that no element carries.
 * `files` lists other paths that exist (static files such as `/openapi.json`).
 */
export function checkLinks(pages: BuiltPage[], files: Set<string> = new Set()): LinkReport {
  const ids = new Map<string, Set<string>>();
  for (const page of pages) ids.set(page.path, new Set([...page.html.matchAll(idPattern)].map((match) => match[1]!)));
  const report: LinkReport = { brokenLinks: [], brokenAnchors: [] };
  for (const page of pages) {
    for (const match of page.html.matchAll(hrefPattern)) {
      const href = decodeEntities(match[1]!);
      if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(href)) continue;
      const [beforeHash = '', hash] = href.split('#', 2);
      const target = beforeHash === '' ? page.path : new URL(beforeHash, `http://site${page.path}`).pathname;
      if (files.has(target)) continue;
      const path = normalizePath(target);
      const targetIds = ids.get(path);
      if (!targetIds) {
        report.brokenLinks.push({ page: page.path, href });
        continue;
      }
      if (hash && !targetIds.has(decodeURIComponent(hash))) report.brokenAnchors.push({ page: page.path, href });
    }
  }
  return report;
}

/**
 * Markdown pages link to routes without a language prefix (`/password/`): in a translated page
 * those links lead to the same route in the page's language (`/fr/password/`).
 */
export function localizeLinks(html: string, language: string, defaultLanguage: string): string {
  if (language === defaultLanguage) return html;
  return html.replace(/(<a\s[^>]*?href=")\/(?!\/|[a-z]{2}\/)([^"]*)"/g, (match, start: string, rest: string) =>
    /\.[a-z0-9]+(?:[?#].*)?$/i.test(rest.replace(/[?#].*$/, '')) ? match : `${start}/${language}/${rest}"`,
  );
}
