import type { Browser, Page } from 'playwright-core';
import {
  collectErrors,
  headingShown,
  hydrated,
  launchChromium,
  locale,
  markdownTitle,
  newContext,
  screenshot,
  startSite,
} from './support/browser';

/** Every route of SPEC.md section 2, without the language prefix. */
const guides = [
  'directory-sync',
  'how-to-use-api-key',
  'how-to-validate-jwt',
  'implement-multi-factor-authentication-mfa',
  'integrations',
  'it-admin-onboarding',
  'magic-link',
  'okta-account-creation',
  'password',
  'single-sign-on',
  'webhooks',
  ...['azure-ad', 'okta', 'ping-one'].map((idp) => `integrations/provisioning-scim-${idp}`),
  ...[
    'adfs',
    'azure-ad',
    'google',
    'ibm-security-verify',
    'jumpcloud',
    'keycloak',
    'lemon-ldap',
    'okta',
    'onelogin',
    'ping-federate',
    'ping-one',
    'wallix',
  ].map((idp) => `integrations/sso-saml-${idp}`),
];
const languages = [
  { code: 'en', prefix: '' },
  { code: 'fr', prefix: '/fr' },
] as const;

let browser: Browser;
let site: { url: string; close(): Promise<void> };

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), startSite()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(page: Page, path: string) {
  const response = await page.goto(`${site.url}${path}`);
  await hydrated(page);
  return response;
}

describe('routes', () => {
  it('serve every route in both languages with its title, without console errors', async () => {
    const context = await newContext(browser);
    const errors = collectErrors(context);
    const outside: string[] = [];
    context.on('request', (request) => {
      if (!/^(data:|blob:)/.test(request.url()) && !request.url().startsWith(site.url)) outside.push(request.url());
    });
    const page = await context.newPage();
    const failures: string[] = [];
    for (const { code, prefix } of languages) {
      const landing = await open(page, `${prefix}/`);
      const landingTitle = locale(code).landing.title as string;
      if (landing?.status() !== 200 || (await page.locator('h1').first().innerText()) !== landingTitle)
        failures.push(`${prefix}/`);
      await screenshot(page, `${code}-landing`);
      for (const slug of guides) {
        const response = await open(page, `${prefix}/${slug}/`);
        const title = await page.locator('article h1').innerText();
        if (response?.status() !== 200 || title !== markdownTitle(code, slug))
          failures.push(`${prefix}/${slug}/ (${response?.status()}: ${title})`);
        if (slug === 'password' || slug === 'integrations/sso-saml-okta')
          await screenshot(page, `${code}-${slug.replace(/\//g, '-')}`);
      }
      const api = await open(page, `${prefix}/api/`);
      await page.waitForSelector('.redoc-container [role="search"], .redoc-container .menu-content', { timeout: 30_000 });
      if (api?.status() !== 200 || !(await page.title()).startsWith(locale(code).api.title)) failures.push(`${prefix}/api/`);
      await screenshot(page, `${code}-api`);
    }
    expect(failures).toEqual([]);
    expect(errors).toEqual([]);
    // The site loads only its own files (SPEC.md section 7; no analytics address is configured here).
    expect(outside).toEqual([]);
    await context.close();
  });

  it.each([
    ['/password.html', 'en', 'password'],
    ['/password/index.html', 'en', 'password'],
    ['/fr/password.html', 'fr', 'password'],
    ['/fr/integrations/sso-saml-okta/index.html', 'fr', 'integrations/sso-saml-okta'],
    ['/integrations/provisioning-scim-okta.html', 'en', 'integrations/provisioning-scim-okta'],
  ])('serve %s as the same page', async (path, language, slug) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await open(page, path);
    expect(response?.status()).toBe(200);
    expect(await page.locator('article h1').innerText()).toBe(markdownTitle(language, slug));
    expect(new URL(page.url()).pathname).toBe(`${language === 'fr' ? '/fr' : ''}/${slug}/`);
    await context.close();
  });

  it.each([
    ['/no-such-page/', 'en'],
    ['/fr/no-such-page', 'fr'],
    ['/fr/does-not-exist/', 'fr'],
    ['/integrations/sso-saml-unknown/', 'en'],
  ])('answer %s with the not-found page, hydrated without a page error', async (path, language) => {
    const context = await newContext(browser);
    const errors = collectErrors(context);
    const page = await context.newPage();
    const response = await open(page, path);
    expect(response?.status()).toBe(404);
    const texts = locale(language).notFound;
    await expect(page.locator('h1').innerText()).resolves.toBe(texts.title);
    await expect(page.locator('.not-found').innerText()).resolves.toContain(texts.tellOwner);
    // Hydrated in the same language: a mismatch (React error 425) would be reported after the first render.
    await page.waitForTimeout(500);
    await expect(page.locator('h1').innerText()).resolves.toBe(texts.title);
    expect(await page.getAttribute('html', 'lang')).toBe(language);
    // The only errors: the browser reporting the 404 answers themselves (the page, Gatsby's page-data probes).
    expect(
      errors.filter((error) => !error.endsWith('Failed to load resource: the server responded with a status of 404 (Not Found)')),
    ).toEqual([]);
    if (language === 'fr') {
      expect(texts.title).toBe('Page introuvable');
      await screenshot(page, 'fr-not-found');
    }
    await context.close();
  });
});

describe('chrome', () => {
  it('switches language and keeps the current page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await open(page, '/integrations/sso-saml-okta/');
    await page.locator('.navbar-items--right .language-dropdown .dropdown-toggle').click();
    await page.locator('.language-dropdown a[lang="fr"]').click();
    await page.waitForURL(`${site.url}/fr/integrations/sso-saml-okta/`);
    await hydrated(page);
    await headingShown(page, markdownTitle('fr', 'integrations/sso-saml-okta'));
    await page.locator('.navbar-items--right .language-dropdown .dropdown-toggle').click();
    await page.locator('.language-dropdown a[lang="en"]').click();
    await page.waitForURL(`${site.url}/integrations/sso-saml-okta/`);
    await context.close();
  });

  it('remembers that the announcement bar was closed', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await open(page, '/');
    const bar = page.locator('.announcement-bar');
    await expect(bar.isVisible()).resolves.toBe(true);
    await bar.locator('.announcement-close').click();
    await expect(bar.isVisible()).resolves.toBe(false);
    await page.reload();
    await hydrated(page);
    await expect(page.locator('.announcement-bar').isVisible()).resolves.toBe(false);
    await context.close();
  });

  it('starts in the light theme even when the system prefers dark, and remembers a switch', async () => {
    const context = await newContext(browser, { colorScheme: 'dark' });
    const page = await context.newPage();
    await open(page, '/password/');
    expect(await page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    await page.locator('.theme-toggle').click();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await page.reload();
    await hydrated(page);
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await screenshot(page, 'en-password-dark');
    await context.close();
  });

  it('shows the mobile menu below 996 px wide and the full navigation above', async () => {
    const context = await newContext(browser, { viewport: { width: 995, height: 800 } });
    const page = await context.newPage();
    await open(page, '/password/');
    await expect(page.locator('.navbar-toggle').isVisible()).resolves.toBe(true);
    await expect(page.locator('.navbar-items--left').isVisible()).resolves.toBe(false);
    await expect(page.locator('.sidebar-container').isVisible()).resolves.toBe(false);
    await page.locator('.navbar-toggle').click();
    const menu = page.locator('#mobile-menu');
    await expect(menu.isVisible()).resolves.toBe(true);
    await expect(menu.locator('.mobile-menu-links a', { hasText: 'MFA' }).isVisible()).resolves.toBe(true);
    await expect(menu.locator('.sidebar').isVisible()).resolves.toBe(true);
    await screenshot(page, 'en-mobile-menu');
    await page.setViewportSize({ width: 997, height: 800 });
    await page.reload();
    await hydrated(page);
    await expect(page.locator('.navbar-toggle').isVisible()).resolves.toBe(false);
    await expect(page.locator('.navbar-items--left').isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('has the top navigation, a 300 px sidebar with collapsible categories and footer links to the integrations', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await open(page, '/password/');
    const links = await page
      .locator('.navbar-items--left a')
      .evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual([
      ['SSO', '/single-sign-on/'],
      ['Directory sync', '/directory-sync/'],
      ['Magic link', '/magic-link/'],
      ['Password', '/password/'],
      ['MFA', '/implement-multi-factor-authentication-mfa/'],
      ['Blog', '/blog/'],
    ]);
    expect(await page.locator('.navbar-items--right a.navbar-link--api').getAttribute('href')).toBe('/api/');
    expect((await page.locator('.sidebar-container').boundingBox())?.width).toBe(300);
    const integrations = page.locator('.sidebar-container [data-category="integrations"]');
    const toggle = integrations.locator('> .sidebar-category-toggle');
    expect(await toggle.innerText()).toBe('integrations');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await toggle.click();
    await expect(integrations.locator('> .sidebar-items').isVisible()).resolves.toBe(true);
    await expect(integrations.locator('a[href="/integrations/sso-saml-okta/"]').count()).resolves.toBe(1);
    await expect(integrations.locator('a[href="/integrations/provisioning-scim-ping-one/"]').count()).resolves.toBe(1);
    const authentication = page.locator('.sidebar-container [data-category="authentication"] > .sidebar-category-toggle');
    await expect(authentication.getAttribute('aria-expanded')).resolves.toBe('true');
    await authentication.click();
    await expect(authentication.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.locator('.sidebar-container [data-category="authentication"] > .sidebar-items').isVisible()).resolves.toBe(
      false,
    );
    const footer = await page.locator('.footer a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(footer).toEqual(
      expect.arrayContaining(['/integrations/', '/integrations/#sso-saml', '/integrations/#scim-provisioning']),
    );
    await context.close();
  });

  it('copies a code block and shows that it was copied', async () => {
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    const page = await context.newPage();
    await open(page, '/how-to-use-api-key/');
    const block = page.locator('#sample-token-client-credentials-form .gatsby-highlight').first();
    await block.hover();
    const button = block.locator('.copy-button');
    await expect(button.innerText()).resolves.toBe('Copy');
    await button.click();
    // The label changes once the clipboard write has resolved, a moment after the click.
    await block.locator('.copy-button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
    await expect(button.innerText()).resolves.toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await block.locator('code').innerText());
    expect(copied).toContain('grant_type=client_credentials');
    await context.close();
  });

  it.each(languages)(
    'switches the request samples between curl and the Node SDK with the mouse and the keyboard ($code)',
    async ({ code, prefix }) => {
      const context = await newContext(browser);
      const errors = collectErrors(context);
      const page = await context.newPage();
      await open(page, `${prefix}/single-sign-on/`);
      const labels = locale(code).samples as Record<string, string>;
      const sample = page.locator('#sample-create-organization');
      const tablist = sample.getByRole('tablist', { name: labels.languages });
      const curl = tablist.getByRole('tab', { name: labels.curl, exact: true });
      const sdk = tablist.getByRole('tab', { name: labels.sdk, exact: true });
      const shown = async () => ({
        curl: [await curl.getAttribute('aria-selected'), await sample.locator('[data-sample-panel="curl"]').isVisible()],
        sdk: [await sdk.getAttribute('aria-selected'), await sample.locator('[data-sample-panel="sdk"]').isVisible()],
        focused: await page.evaluate(() => document.activeElement?.getAttribute('data-sample-tab') ?? null),
      });
      expect(await shown()).toEqual({ curl: ['true', true], sdk: ['false', false], focused: null });
      // A form-body sample has no SDK variant: curl only, no tabs.
      await expect(page.locator('#sample-create-organization-form [role="tablist"]').count()).resolves.toBe(0);

      await sdk.click();
      expect(await shown()).toEqual({ curl: ['false', false], sdk: ['true', true], focused: 'sdk' });
      await screenshot(page, `${code}-sample-tabs-sdk`);
      const sdkCode = sample.getByRole('tabpanel', { name: labels.sdk }).locator('code');
      await expect(sdkCode.innerText()).resolves.toContain("sesame.organizations.create({ name: 'Acme Corporation'");
      // Every sample of the page follows the choice.
      await expect(page.locator('#sample-create-organization-blank-name [data-sample-panel="sdk"]').isVisible()).resolves.toBe(
        true,
      );

      await page.keyboard.press('ArrowLeft');
      expect(await shown()).toEqual({ curl: ['true', true], sdk: ['false', false], focused: 'curl' });
      await page.keyboard.press('ArrowLeft');
      expect(await shown()).toEqual({ curl: ['false', false], sdk: ['true', true], focused: 'sdk' });
      await page.keyboard.press('Home');
      expect(await shown()).toEqual({ curl: ['true', true], sdk: ['false', false], focused: 'curl' });
      await page.keyboard.press('End');
      expect(await shown()).toEqual({ curl: ['false', false], sdk: ['true', true], focused: 'sdk' });
      await page.keyboard.press('ArrowRight');
      expect(await shown()).toEqual({ curl: ['true', true], sdk: ['false', false], focused: 'curl' });
      // Tab leaves the tab list for the selected panel: the other tab is not a tab stop.
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.getAttribute('data-sample-panel'))).resolves.toBe('curl');
      await screenshot(page, `${code}-sample-tabs`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('lists heading levels 2 and 3 in the table of contents', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await open(page, '/password/');
    const headings = await page
      .locator('.markdown h2, .markdown h3')
      .evaluateAll((nodes) => nodes.map((node) => `${node.tagName}#${node.id}`));
    const toc = await page
      .locator('.toc li')
      .evaluateAll((items) =>
        items.map(
          (item) =>
            `${item.className.includes('toc-item--h3') ? 'H3' : 'H2'}#${decodeURIComponent(item.querySelector('a')!.getAttribute('href')!.slice(1))}`,
        ),
      );
    expect(toc).toEqual(headings);
    expect(toc.some((entry) => entry.startsWith('H3'))).toBe(true);
    await expect(page.locator('.markdown h4').count()).resolves.toBe(0);
    await context.close();
  });

  it('remembers the chosen documentation version', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await open(page, '/magic-link/');
    await expect(page.locator('.version-banner').count()).resolves.toBe(0);
    await page.locator('.navbar-items--right .version-dropdown .dropdown-toggle').click();
    await page.locator('.version-dropdown button[data-version="next"]').click();
    await expect(page.locator('.version-banner--unreleased').isVisible()).resolves.toBe(true);
    await page.reload();
    await hydrated(page);
    await expect(page.locator('.navbar-items--right .version-dropdown .dropdown-toggle').innerText()).resolves.toContain('Next');
    await expect(page.locator('.version-banner--unreleased').isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('sesame-docs.version'))).toBe('next');
    await page.locator('.navbar-items--right .version-dropdown .dropdown-toggle').click();
    await page.locator('.version-dropdown button[data-version="v1"]').click();
    await expect(page.locator('.version-banner--unmaintained').isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('marks the unlisted page noindex and keeps it out of the sidebar', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    for (const [path, title] of [
      ['/relays/', 'Unlisted page'],
      ['/fr/relays/', 'Page non répertoriée'],
    ] as const) {
      const response = await open(page, path);
      expect(response?.status()).toBe(200);
      await expect(page.locator('.unlisted-title').innerText()).resolves.toBe(title);
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
      await expect(page.locator('.sidebar a[href$="/relays/"]').count()).resolves.toBe(0);
    }
    await context.close();
  });

  it('has blog, archive and tag pages', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    for (const [path, heading] of [
      ['/blog/', 'Blog'],
      ['/blog/archive/', 'Archive'],
      ['/fr/blog/archive/', 'Archives'],
      ['/blog/tags/', 'All tags'],
    ] as const) {
      expect((await open(page, path))?.status()).toBe(200);
      await expect(page.locator('h1').innerText()).resolves.toBe(heading);
    }
    expect((await open(page, '/blog/tags/architecture/'))?.status()).toBe(200);
    await expect(page.locator('.post-card h2').innerText()).resolves.toBe('Why Sesame is event-sourced');
    await context.close();
  });
});

describe('failure screens', () => {
  it.each([
    ['en', '', 'This page crashed.', 'Try again'],
    ['fr', '/fr', 'Cette page a planté.', 'Réessayer'],
  ])('show the crash page when a page cannot render (%s)', async (_language, prefix, title, retry) => {
    const context = await newContext(browser);
    const errors = collectErrors(context);
    const page = await context.newPage();
    await open(page, `${prefix}/`);
    // A page whose data lost its content, as a broken deployment would serve it.
    await page.route(`**/page-data${prefix}/password/page-data.json`, async (route) => {
      const original = await route.fetch();
      const body = await original.json();
      body.result.data.markdownRemark = null;
      await route.fulfill({ response: original, json: body });
    });
    await page.locator('.navbar-items--left a[href$="/password/"]').click();
    await expect(page.locator('.crash-page h1').innerText()).resolves.toBe(title);
    const button = page.locator('.crash-page button');
    await expect(button.innerText()).resolves.toBe(retry);
    await page.unrouteAll();
    await button.click();
    await page.waitForSelector('article h1');
    expect(errors.join('\n')).toContain('No content for');
    await context.close();
  });

  it('reloads the page when the data of the next page cannot be preloaded', async () => {
    const context = await newContext(browser);
    const errors = collectErrors(context);
    const page = await context.newPage();
    await open(page, '/password/');
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await page.route('**/page-data/magic-link/page-data.json', (route) => route.fulfill({ status: 500, body: 'unavailable' }), {
      times: 1,
    });
    await page.locator('.navbar-items--left a[href="/magic-link/"]').click();
    await page.waitForURL(`${site.url}/magic-link/`);
    await hydrated(page);
    await headingShown(page, markdownTitle('en', 'magic-link'));
    // A full page load: the previous document's state is gone.
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBeUndefined();
    // The browser reports the refused page data (and Gatsby's not-found probe after it), nothing else.
    expect(
      errors.filter((error) => !/Failed to load resource: the server responded with a status of (500|404)/.test(error)),
    ).toEqual([]);
    expect(errors.join('\n')).toContain('status of 500');
    await context.close();
  });

  it('offers to retry when the API reference cannot be loaded', async () => {
    const context = await newContext(browser);
    const errors = collectErrors(context);
    const page = await context.newPage();
    await page.route('**/openapi.json', (route) => route.abort('failed'));
    await page.goto(`${site.url}/fr/api/`);
    const retry = page.locator('.load-failed button');
    await expect(retry.innerText()).resolves.toBe('Réessayer');
    await screenshot(page, 'fr-api-failed');
    await page.unrouteAll();
    await retry.click();
    await page.waitForSelector('.redoc-container .menu-content', { timeout: 30_000 });
    // Only the refused download is reported.
    expect(errors.filter((error) => !error.endsWith('Failed to load resource: net::ERR_FAILED'))).toEqual([]);
    await context.close();
  });
});

describe('API reference', () => {
  async function menu(page: Page) {
    await page.waitForSelector('.redoc-container .menu-content', { timeout: 30_000 });
    return page.locator('.redoc-container .menu-content');
  }

  it('groups tags, sorts operations alphabetically and hides the download button', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${site.url}/api/`);
    const content = await menu(page);
    const sideMenuText = (await content.innerText()).toLowerCase();
    for (const group of ['user directories', 'authentications', 'others', 'organizations', 'token'])
      expect(sideMenuText).toContain(group);
    const tags = content.locator('li[data-item-id^="tag/"]');
    expect(await tags.count()).toBeGreaterThan(0);
    for (const tag of await tags.all()) {
      const names = (
        await tag.locator('li[data-item-id*="/operation/"] > label > span:not(.operation-type)').allTextContents()
      ).map((name) => name.trim());
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    }
    const organizationOps = await content
      .locator('li[data-item-id="tag/Organizations"] li[data-item-id*="/operation/"] > label > span:not(.operation-type)')
      .allTextContents();
    expect(organizationOps.slice(0, 3)).toEqual([
      'Assert that an organization owns an email domain',
      'Check the TXT record of an email domain now',
      'Create an organization',
    ]);
    await expect(
      page.locator('.redoc-container a[download], .redoc-container button:has-text("Download")').count(),
    ).resolves.toBe(0);
    await context.close();
  });

  it('translates the labels and the groups in French', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${site.url}/fr/api/`);
    const content = await menu(page);
    const text = (await content.innerText()).toLowerCase();
    expect(text).toContain("annuaires d'utilisateurs");
    expect(text).toContain('authentifications');
    await page
      .locator('.redoc-container [data-section-id="tag/Organizations/operation/createOrganization"]')
      .scrollIntoViewIfNeeded();
    await expect(page.locator('.redoc-container').innerText()).resolves.toContain('Réponses');
    await context.close();
  });
});

describe('sitemap', () => {
  it('lists the pages weekly with priority 0.5, without tag, not-found or unlisted pages', async () => {
    const index = await (await fetch(`${site.url}/sitemap-index.xml`)).text();
    const sitemaps = [...index.matchAll(/<loc>[^<]*?(\/sitemap-\d+\.xml)<\/loc>/g)].map((match) => match[1]!);
    expect(sitemaps.length).toBeGreaterThan(0);
    const body = (await Promise.all(sitemaps.map(async (path) => (await fetch(`${site.url}${path}`)).text()))).join('\n');
    const urls = [...body.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => match[1]!);
    const locs = urls.map((url) => new URL(/<loc>([^<]+)<\/loc>/.exec(url)![1]!).pathname);
    for (const url of urls) {
      expect(url).toContain('<changefreq>weekly</changefreq>');
      expect(url).toContain('<priority>0.5</priority>');
    }
    for (const slug of guides) expect(locs).toEqual(expect.arrayContaining([`/${slug}/`, `/fr/${slug}/`]));
    expect(locs).toEqual(expect.arrayContaining(['/', '/fr/', '/api/', '/fr/api/', '/blog/archive/']));
    expect(locs.filter((loc) => /\/blog\/tags\/|404|\/relays\//.test(loc))).toEqual([]);
    expect(body).toContain('hreflang="fr"');
  });
});
