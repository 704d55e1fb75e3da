#!/usr/bin/env node
/**
 * `node bench/docs-build.mjs`: the documentation site's cold and warm build times, the weight of
 * the landing page and of the API reference as Debian's chromium loads them, and (when the
 * `lighthouse` package is installed and runs with that chromium) the Lighthouse performance score
 * of the French landing page. Writes bench/results/docs.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docs = join(root, 'docs');
const require = createRequire(join(docs, 'package.json'));
const { chromium } = require('playwright-core');
const { startDocsServer } = require(join(docs, 'scripts', 'static-server.cjs'));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const lighthouseVersion = '12.8.2';
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function timedBuild(label) {
  const started = process.hrtime.bigint();
  const result = spawnSync('npm', ['run', 'build', '-w', 'docs'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) {
    console.error(result.stdout.slice(-4000), result.stderr.slice(-4000));
    throw new Error(`${label} build failed`);
  }
  console.log(`${label} build: ${seconds.toFixed(1)} s`);
  return seconds;
}

/** Bytes of every response a page loads until the network is idle, and their gzip size. */
async function pageWeight(browser, url, ready) {
  const page = await browser.newPage();
  const bodies = [];
  page.on('response', async (response) => {
    try {
      bodies.push({ type: response.request().resourceType(), body: await response.body() });
    } catch {
      // Redirects and aborted requests have no body.
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  if (ready) await page.waitForSelector(ready, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.close();
  const sum = (items, size) => items.reduce((total, item) => total + size(item), 0);
  const scripts = bodies.filter((item) => item.type === 'script');
  return {
    requests: bodies.length,
    bytes: sum(bodies, (item) => item.body.length),
    gzipBytes: sum(bodies, (item) => gzipSync(item.body).length),
    scriptBytes: sum(scripts, (item) => item.body.length),
  };
}

/**
 * Lighthouse is large (about 190 MB installed) and only this benchmark uses it: it is installed
 * on demand from the npm registry into a folder outside the repository, not into the workspaces.
 */
function loadLighthouse() {
  const dir = join(os.tmpdir(), `sesame-bench-lighthouse-${lighthouseVersion}`);
  const entry = join(dir, 'node_modules', 'lighthouse', 'core', 'index.js');
  if (!existsSync(entry)) {
    console.log(`Installing lighthouse ${lighthouseVersion} into ${dir}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `lighthouse@${lighthouseVersion}`], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (result.status !== 0) return null;
  }
  return entry;
}

async function lighthouseScore(url) {
  const entry = loadLighthouse();
  if (!entry) return { skipped: 'the lighthouse package could not be installed' };
  const lighthouse = (await import(entry)).default;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--remote-debugging-port=9333'],
  });
  try {
    const result = await lighthouse(url, { port: 9333, output: 'json', onlyCategories: ['performance'], logLevel: 'error' });
    return { score: Math.round((result?.lhr.categories.performance.score ?? 0) * 100) };
  } catch (error) {
    return { skipped: `lighthouse failed with Debian chromium: ${error.message}` };
  } finally {
    await browser.close();
  }
}

rmSync(join(docs, '.cache'), { recursive: true, force: true });
rmSync(join(docs, 'public'), { recursive: true, force: true });
const cold = timedBuild('cold');
const warm = timedBuild('warm');

if (!existsSync(chromiumPath))
  throw new Error(`${chromiumPath} is missing: run "npm run test:browser" once to install Debian's chromium`);
const site = await startDocsServer({ root: join(docs, 'public') });
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const landing = await pageWeight(browser, `${site.url}/`);
const api = await pageWeight(browser, `${site.url}/api/`, '.redoc-container .menu-content');
await browser.close();
const lighthouse = await lighthouseScore(`${site.url}/fr/`);
await site.close();

const kib = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const figures = [
  { name: 'cold build (no cache)', value: Math.round(cold * 10) / 10, unit: 's' },
  { name: 'warm build (cache kept)', value: Math.round(warm * 10) / 10, unit: 's' },
  { name: 'landing page weight', value: kib(landing.bytes), unit: 'KiB' },
  { name: 'landing page weight, gzip', value: kib(landing.gzipBytes), unit: 'KiB' },
  { name: 'landing page scripts', value: kib(landing.scriptBytes), unit: 'KiB' },
  { name: 'landing page requests', value: landing.requests, unit: 'requests' },
  { name: 'api page weight', value: kib(api.bytes), unit: 'KiB' },
  { name: 'api page weight, gzip', value: kib(api.gzipBytes), unit: 'KiB' },
  { name: 'api page scripts', value: kib(api.scriptBytes), unit: 'KiB' },
  { name: 'api page requests', value: api.requests, unit: 'requests' },
];
if (lighthouse.score !== undefined)
  figures.push({ name: 'Lighthouse performance, /fr/', value: lighthouse.score, unit: 'score' });

console.log('\ndocs');
for (const figure of figures) console.log(`  ${figure.name.padEnd(36)} ${String(figure.value).padStart(9)} ${figure.unit}`);
if (lighthouse.skipped) console.log(`  Lighthouse: skipped (${lighthouse.skipped})`);

const results = join(root, 'bench', 'results');
mkdirSync(results, { recursive: true });
const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() };
const notes = {
  pages:
    'loaded by Debian chromium from the site static server until the network is idle; weights are uncompressed response bodies, and their gzip size',
  ...(lighthouse.skipped ? { lighthouse: lighthouse.skipped } : {}),
};
writeFileSync(
  join(results, 'docs.json'),
  `${JSON.stringify({ benchmark: 'docs', measuredAt: new Date().toISOString(), machine, notes, figures }, null, 2)}\n`,
);
