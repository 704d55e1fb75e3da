import { checkLinks, localizeLinks, normalizePath } from '../src/site/links';
import { sitemapEntry } from '../src/site/sitemap';
import { analyticsScript, initialScript, normalizeHtmlPath } from '../src/site/head-scripts';
import { pathInLanguage } from '../src/site/i18n';

describe('build link check', () => {
  const pages = [
    {
      path: '/',
      html: '<a href="/password/">p</a><a href="/password/#set-a-password">a</a><a href="https://example.com/x">e</a>',
    },
    {
      path: '/password/',
      html: '<h2 id="set-a-password">Set</h2><a href="#nowhere">n</a><a href="/fr/missing/">m</a><a href="/openapi.json">o</a>',
    },
    { path: '/fr/password/', html: '<h2 id="définir">D</h2><a href="/fr/password/#d%C3%A9finir">d</a><a href="../">up</a>' },
  ];

  it('reports links to pages that do not exist and anchors no element carries', () => {
    expect(checkLinks(pages, new Set(['/openapi.json']))).toEqual({
      brokenLinks: [
        { page: '/password/', href: '/fr/missing/' },
        { page: '/fr/password/', href: '../' },
      ],
      brokenAnchors: [{ page: '/password/', href: '#nowhere' }],
    });
  });

  it('treats .html and index.html forms as the page itself', () => {
    expect(normalizePath('/password.html')).toBe('/password/');
    expect(normalizePath('/password/index.html')).toBe('/password/');
    expect(normalizePath('/password')).toBe('/password/');
    expect(normalizeHtmlPath('/fr/password.html')).toBe('/fr/password/');
    expect(normalizeHtmlPath('/fr/password/index.html')).toBe('/fr/password/');
    expect(normalizeHtmlPath('/fr/password/')).toBeNull();
  });

  it('points links of translated pages to the same language, leaving files and other languages alone', () => {
    const html =
      '<a href="/password/#x">p</a><a href="/openapi.json">o</a><a href="/fr/api/">f</a><a href="https://x.org/">e</a>';
    expect(localizeLinks(html, 'fr', 'en')).toBe(
      '<a href="/fr/password/#x">p</a><a href="/openapi.json">o</a><a href="/fr/api/">f</a><a href="https://x.org/">e</a>',
    );
    expect(localizeLinks(html, 'en', 'en')).toBe(html);
  });
});

describe('site settings', () => {
  it('maps a path to the other language', () => {
    expect(pathInLanguage('/password/', 'fr')).toBe('/fr/password/');
    expect(pathInLanguage('/fr/password/', 'en')).toBe('/password/');
    expect(pathInLanguage('/fr/', 'en')).toBe('/');
    expect(pathInLanguage('/', 'fr')).toBe('/fr/');
  });

  it('gives sitemap entries a weekly frequency, priority 0.5 and language alternates', () => {
    const entry = sitemapEntry(
      {
        path: '/fr/password/',
        pageContext: { i18n: { language: 'fr', languages: ['en', 'fr'], defaultLanguage: 'en', originalPath: '/password/' } },
      },
      'https://docs.example.com',
    );
    expect(entry).toEqual({
      url: 'https://docs.example.com/fr/password/',
      changefreq: 'weekly',
      priority: 0.5,
      links: [
        { lang: 'en', url: 'https://docs.example.com/password/' },
        { lang: 'fr', url: 'https://docs.example.com/fr/password/' },
      ],
    });
  });

  it('loads analytics deferred only when configured, and starts in the light theme unless dark was chosen', () => {
    expect(analyticsScript('')).toBeNull();
    expect(analyticsScript('https://stats.example.com/script.js')).toEqual({
      src: 'https://stats.example.com/script.js',
      defer: true,
    });
    const script = initialScript();
    expect(script).not.toContain('prefers-color-scheme');
    const run = (stored: Record<string, string>, pathname = '/password/') => {
      const dataset: Record<string, string> = {};
      const localStorage = { getItem: (key: string) => stored[key] ?? null };
      const replaced: string[] = [];
      const history = { state: null, replaceState: (_state: unknown, _title: string, url: string) => replaced.push(url) };
      const location = { pathname, search: '?q=1', hash: '#h' };
      new Function('document', 'localStorage', 'location', 'history', script)(
        { documentElement: { dataset } },
        localStorage,
        location,
        history,
      );
      return replaced.length ? { ...dataset, replaced: replaced.join() } : dataset;
    };
    expect(run({})).toEqual({ theme: 'light' });
    expect(run({ 'sesame-docs.theme': 'dark' })).toEqual({ theme: 'dark' });
    expect(run({ 'sesame-docs.announcement-dismissed': 'scim-directory-sync-2025' })).toEqual({
      theme: 'light',
      announcementDismissed: 'true',
    });
    expect(run({}, '/fr/password.html')).toEqual({ theme: 'light', replaced: '/fr/password/?q=1#h' });
  });
});
