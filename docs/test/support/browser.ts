import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startDocsServer } from '../../scripts/static-server.cjs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const docsDir = resolve(__dirname, '..', '..');
export const publicDir = join(docsDir, 'public');
export const screenshotDir = resolve(docsDir, '..', 'test-results', 'docs-screenshots');

/** Debian's chromium, as DESIGN.md section 7 says: never a downloaded browser build. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(`${executablePath} is missing: run "npm run test:browser", which installs Debian's chromium`);
  if (!existsSync(join(publicDir, 'index.html')))
    throw new Error('docs/public has no built site: run "npm run docs:build" first');
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** The site's own static server (docs/scripts/static-server.mjs) on a free port. */
export async function startSite(): Promise<StaticServer> {
  // The same server `npm start` uses for the site.
  return startDocsServer({ root: publicDir });
}

/** Console errors and uncaught exceptions of every page of a context. */
export function collectErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  context.on('page', (page) => watchPage(page, errors));
  for (const page of context.pages()) watchPage(page, errors);
  return errors;
}

function watchPage(page: Page, errors: string[]) {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
}

export async function newContext(browser: Browser, options: BrowserContextOptions = {}) {
  return browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
}

/** Waits until React has hydrated the page (Gatsby's router has mounted it). */
export async function hydrated(page: Page) {
  await page.waitForSelector('html[data-hydrated="true"]', { state: 'attached' });
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: false });
}

/** Front matter title of a guide, from its markdown file. */
export function markdownTitle(language: string, slug: string): string {
  const file = join(docsDir, 'content', 'docs', language, slug === 'integrations' ? 'integrations/index' : slug) + '.md';
  const match = /^title:\s*(['"]?)(.*)\1\s*$/m.exec(readFileSync(file, 'utf8'));
  if (!match) throw new Error(`No title in ${file}`);
  return match[1] === "'" ? match[2]!.replace(/''/g, "'") : match[2]!.replace(/\\"/g, '"');
}

export function locale(language: string): Record<string, any> {
  return JSON.parse(readFileSync(join(docsDir, 'locales', language, 'translation.json'), 'utf8'));
}
