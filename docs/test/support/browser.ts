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

interface WatchedContext {
  errors: string[];
  /** The test reads the errors itself (`collectErrors`), e.g. to expect some. */
  claimed: boolean;
}
/** The contexts opened by the running test: every page error fails it unless the test claimed them. */
const watched = new Map<BrowserContext, WatchedContext>();

/**
 * Console errors and uncaught exceptions of every page of a context, for a test that checks them
 * itself (one that expects some). Otherwise any of them fails the test on its own (see below).
 */
export function collectErrors(context: BrowserContext): string[] {
  const entry = watched.get(context) ?? watch(context);
  entry.claimed = true;
  return entry.errors;
}

function watch(context: BrowserContext): WatchedContext {
  const entry: WatchedContext = { errors: [], claimed: false };
  watched.set(context, entry);
  context.on('page', (page) => watchPage(page, entry.errors));
  for (const page of context.pages()) watchPage(page, entry.errors);
  return entry;
}

function watchPage(page: Page, errors: string[]) {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
}

/** The page errors (console errors, uncaught exceptions such as a hydration mismatch) no test claimed. */
export function unclaimedPageErrors(): string[] {
  const errors = [...watched.values()].filter((entry) => !entry.claimed).flatMap((entry) => entry.errors);
  watched.clear();
  return errors;
}

// Every browser test fails on a page error it did not expect, whether or not it looked.
afterEach(() => {
  const errors = unclaimedPageErrors();
  if (errors.length > 0) throw new Error(`page errors during the test:\n${errors.join('\n')}`);
});

/** A browser context whose pages' errors fail the test unless it claims them with `collectErrors`. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  watch(context);
  return context;
}

/** Waits until React has hydrated the page (Gatsby's router has mounted it). */
export async function hydrated(page: Page) {
  await page.waitForSelector('html[data-hydrated="true"]', { state: 'attached' });
}

/**
 * Waits until the page's title heading reads `title`. After a client-side navigation the address
 * changes before React renders the new page (the render is a transition), so read the page only then.
 */
export async function headingShown(page: Page, title: string) {
  await page.waitForFunction((expected) => document.querySelector('article h1')?.textContent === expected, title);
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
