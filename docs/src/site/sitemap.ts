/** Sitemap rules of SPEC.md section 2: weekly, priority 0.5, tag pages and unlisted pages excluded. */

export interface SitemapPage {
  path: string;
  pageContext?: {
    unlisted?: boolean;
    i18n?: { language: string; languages: string[]; defaultLanguage: string; originalPath: string };
  };
}

export interface SitemapEntry {
  url: string;
  changefreq: 'weekly';
  priority: number;
  links?: { lang: string; url: string }[];
}

export const sitemapExcludes = [
  '/blog/tags/**',
  '/*/blog/tags/**',
  '/404/',
  '/404.html',
  '/*/404/',
  '/*/404.html',
  '/dev-404-page/',
];

function localizedPath(originalPath: string, language: string, defaultLanguage: string): string {
  return language === defaultLanguage ? originalPath : `/${language}${originalPath}`;
}

export function sitemapEntry(page: SitemapPage, siteUrl: string): SitemapEntry {
  const entry: SitemapEntry = { url: `${siteUrl}${page.path}`, changefreq: 'weekly', priority: 0.5 };
  const i18n = page.pageContext?.i18n;
  if (i18n && i18n.languages.length > 1) {
    entry.links = i18n.languages.map((lang) => ({
      lang,
      url: `${siteUrl}${localizedPath(i18n.originalPath, lang, i18n.defaultLanguage)}`,
    }));
  }
  return entry;
}
