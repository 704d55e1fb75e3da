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

let browser: Browser;
let site: { url: string; close(): Promise<void> };

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), startSite()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const cases = [
  { language: 'en', prefix: '', start: '/password/', shortcut: '/', query: 'verify signature', heading: 'Verify the signature' },
  {
    language: 'fr',
    prefix: '/fr',
    start: '/fr/',
    shortcut: 'Control+k',
    query: 'vérifier signature',
    heading: 'Vérifier la signature',
  },
] as const;

async function options(page: Page) {
  await page.locator('#search-results [role="option"]').first().waitFor();
  return page.locator('#search-results [role="option"]').evaluateAll((items) =>
    items.map((item) => ({
      id: item.id,
      title: item.querySelector('.search-result-title')!.firstChild!.textContent,
      heading: item.querySelector('.search-result-heading')?.textContent?.replace(/^ › /, '') ?? null,
    })),
  );
}

describe('search', () => {
  it.each(cases)(
    'finds a $language guide section from the $language pages and goes to its heading with the keyboard',
    async ({ language, prefix, start, shortcut, query, heading }) => {
      const context = await newContext(browser);
      const errors = collectErrors(context);
      const page = await context.newPage();
      await page.goto(`${site.url}${start}`);
      await hydrated(page);
      const texts = locale(language).search;
      await page.keyboard.press(shortcut);
      const input = page.getByRole('combobox', { name: texts.label });
      await expect(input.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
      await input.pressSequentially(query);
      const found = await options(page);
      await expect(page.locator('.search-status').innerText()).resolves.toMatch(new RegExp(`^${found.length} `));
      // Results in the reader's language only: the English index has no French title, and the reverse.
      const titles = new Set(found.map((option) => option.title));
      expect(titles).toContain(markdownTitle(language, 'webhooks'));
      const target = found.findIndex(
        (option) => option.heading === heading && option.title === markdownTitle(language, 'webhooks'),
      );
      expect(target).toBeGreaterThanOrEqual(0);
      await expect(input.getAttribute('aria-expanded')).resolves.toBe('true');
      await expect(input.getAttribute('aria-activedescendant')).resolves.toBe(found[0]!.id);
      for (let step = 0; step < target; step++) await page.keyboard.press('ArrowDown');
      await expect(input.getAttribute('aria-activedescendant')).resolves.toBe(found[target]!.id);
      await expect(page.locator(`#${found[target]!.id}`).getAttribute('aria-selected')).resolves.toBe('true');
      await screenshot(page, `${language}-search`);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === `${prefix}/webhooks/`);
      const anchor = decodeURIComponent(new URL(page.url()).hash.slice(1));
      await headingShown(page, markdownTitle(language, 'webhooks'));
      await expect(page.locator(`[id="${anchor}"]`).innerText()).resolves.toBe(heading);
      await expect(page.locator('.search-dialog').count()).resolves.toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('answers in French on French pages, says when nothing matches, and closes on Escape with focus back', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${site.url}/fr/password/`);
    await hydrated(page);
    const texts = locale('fr').search;
    // Named for assistive technologies even where only its icon and shortcut show.
    const button = page.getByRole('button', { name: texts.open, exact: true });
    await expect(button.getAttribute('aria-keyshortcuts')).resolves.toBe('/ Control+K Meta+K');
    await button.click();
    const input = page.getByRole('combobox', { name: texts.label });
    await input.fill('tentatives');
    const found = await options(page);
    const english = new Set(['password', 'webhooks', 'magic-link'].map((slug) => markdownTitle('en', slug)));
    const french = new Set(['password', 'webhooks', 'magic-link'].map((slug) => markdownTitle('fr', slug)));
    expect(found.some((option) => french.has(option.title!))).toBe(true);
    expect(found.filter((option) => english.has(option.title!) && !french.has(option.title!))).toEqual([]);
    await input.fill('zzzquux');
    await expect(page.locator('.search-status').innerText()).resolves.toBe('Aucun résultat pour « zzzquux »');
    await expect(input.getAttribute('aria-expanded')).resolves.toBe('false');
    await page.keyboard.press('Escape');
    await expect(page.locator('.search-dialog').count()).resolves.toBe(0);
    await expect(button.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    // `/` typed in a text field is a character, not the shortcut; Cmd+K opens it as Ctrl+K does.
    await page.keyboard.press('Meta+k');
    await expect(page.locator('.search-dialog').count()).resolves.toBe(1);
    await page.keyboard.type('a/b');
    await expect(input.inputValue()).resolves.toBe('a/b');
    await context.close();
  });
});
