#!/usr/bin/env node
/**
 * `node bench/docs-build.mjs`: the documentation site's cold and warm build times, the weight of
 * the landing page and of the API reference as Debian's chromium loads them, and (when the
 * `lighthouse` package is installed and runs with that chromium) the Lighthouse performance and
 * accessibility scores of the French and English landing pages, served by the docs static server
 * (precompressed files, ETags). Lighthouse keeps its default configuration (mobile, simulated
 * throttling); each page is measured 3 times, and the medians of the scores and of the metrics
 * (FCP, LCP, TBT, CLS, SI) are reported with the audits that cost points. Writes
 * bench/results/docs.json. `--no-build` measures the site already built in docs/public.
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

/** The median of numbers (the middle one of an odd count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Lighthouse's lab metrics, in milliseconds (CLS has no unit). */
const metricAudits = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
};

/** The performance audits that cost points in one run: savings and scores below 0.9. */
function costlyAudits(lhr) {
  const refs = lhr.categories.performance?.auditRefs ?? [];
  const ids = new Set(refs.map((ref) => ref.id));
  return Object.values(lhr.audits)
    .filter((audit) => ids.has(audit.id) || audit.details?.overallSavingsMs > 0)
    .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
    .map((audit) => `${audit.id}: ${audit.displayValue ?? ''} (score ${audit.score})`.replace(' ()', ''));
}

/**
 * One Lighthouse run of `url` in a fresh chromium: the default configuration (mobile, simulated
 * throttling), performance and accessibility only.
 */
async function lighthouseRun(lighthouse, url) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--remote-debugging-port=9333'],
  });
  try {
    const result = await lighthouse(url, {
      port: 9333,
      output: 'json',
      onlyCategories: ['performance', 'accessibility'],
      logLevel: 'error',
    });
    const lhr = result?.lhr;
    if (!lhr) return { skipped: 'lighthouse returned no report' };
    if (lhr.runtimeError) return { skipped: `lighthouse: ${lhr.runtimeError.message}` };
    const score = (category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
    const metrics = Object.fromEntries(
      Object.entries(metricAudits).map(([name, id]) => [name, lhr.audits[id]?.numericValue ?? Number.NaN]),
    );
    return { performance: score('performance'), accessibility: score('accessibility'), metrics, costly: costlyAudits(lhr) };
  } catch (error) {
    return { skipped: `lighthouse failed with Debian chromium: ${error.message}` };
  } finally {
    await browser.close();
  }
}

/**
 * `runs` Lighthouse runs of `url` (the machine is shared: one run is noisy): the median of each
 * score and metric, every run's performance score, and the costly audits of the median run.
 */
async function lighthouseScores(url, runs) {
  const entry = loadLighthouse();
  if (!entry) return { skipped: 'the lighthouse package could not be installed' };
  const lighthouse = (await import(entry)).default;
  const results = [];
  for (let run = 0; run < runs; run++) {
    const result = await lighthouseRun(lighthouse, url);
    if (result.skipped) return result;
    results.push(result);
  }
  const metrics = Object.fromEntries(
    Object.keys(metricAudits).map((name) => [name, median(results.map((result) => result.metrics[name]))]),
  );
  const performance = median(results.map((result) => result.performance));
  const middle = results.find((result) => result.performance === performance) ?? results[0];
  return {
    performance,
    accessibility: median(results.map((result) => result.accessibility)),
    metrics,
    runs: results.map((result) => result.performance),
    costly: middle.costly,
  };
}

// `--no-build`: measure the site already in docs/public (the build figures are then left out).
const build = !process.argv.includes('--no-build');
const lighthouseRuns = 3;
const builds = [];
if (build) {
  rmSync(join(docs, '.cache'), { recursive: true, force: true });
  rmSync(join(docs, 'public'), { recursive: true, force: true });
  builds.push({ name: 'cold build (no cache)', value: Math.round(timedBuild('cold') * 10) / 10, unit: 's' });
  builds.push({ name: 'warm build (cache kept)', value: Math.round(timedBuild('warm') * 10) / 10, unit: 's' });
} else if (!existsSync(join(docs, 'public', 'index.html'))) throw new Error('--no-build: build the docs first');

if (!existsSync(chromiumPath))
  throw new Error(`${chromiumPath} is missing: run "npm run test:browser" once to install Debian's chromium`);
const site = await startDocsServer({ root: join(docs, 'public') });
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const landing = await pageWeight(browser, `${site.url}/`);
const api = await pageWeight(browser, `${site.url}/api/`, '.redoc-container .menu-content');
await browser.close();
const lighthouse = {};
for (const path of ['/fr/', '/']) lighthouse[path] = await lighthouseScores(`${site.url}${path}`, lighthouseRuns);
await site.close();

const kib = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const figures = [
  ...builds,
  { name: 'landing page weight', value: kib(landing.bytes), unit: 'KiB' },
  { name: 'landing page weight, gzip', value: kib(landing.gzipBytes), unit: 'KiB' },
  { name: 'landing page scripts', value: kib(landing.scriptBytes), unit: 'KiB' },
  { name: 'landing page requests', value: landing.requests, unit: 'requests' },
  { name: 'api page weight', value: kib(api.bytes), unit: 'KiB' },
  { name: 'api page weight, gzip', value: kib(api.gzipBytes), unit: 'KiB' },
  { name: 'api page scripts', value: kib(api.scriptBytes), unit: 'KiB' },
  { name: 'api page requests', value: api.requests, unit: 'requests' },
];
for (const [path, scores] of Object.entries(lighthouse)) {
  if (scores.skipped) continue;
  const median = `median of ${lighthouseRuns}`;
  figures.push(
    { name: `Lighthouse performance, ${path}`, value: scores.performance, unit: `score (${median}: ${scores.runs.join(', ')})` },
    { name: `Lighthouse accessibility, ${path}`, value: scores.accessibility, unit: `score (${median})` },
    ...Object.entries(scores.metrics).map(([metric, value]) =>
      metric === 'CLS'
        ? { name: `  ${metric}, ${path}`, value: Math.round(value * 1000) / 1000, unit: median }
        : { name: `  ${metric}, ${path}`, value: Math.round(value), unit: `ms (${median})` },
    ),
  );
}

console.log('\ndocs');
for (const figure of figures) console.log(`  ${figure.name.padEnd(36)} ${String(figure.value).padStart(9)} ${figure.unit}`);
for (const [path, scores] of Object.entries(lighthouse)) {
  if (scores.skipped) console.log(`  Lighthouse ${path}: skipped (${scores.skipped})`);
  else if (scores.costly.length) console.log(`  Lighthouse ${path}, audits costing points:\n    ${scores.costly.join('\n    ')}`);
}

const results = join(root, 'bench', 'results');
mkdirSync(results, { recursive: true });
const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() };
const skipped = Object.entries(lighthouse).filter(([, scores]) => scores.skipped);
const notes = {
  pages:
    'loaded by Debian chromium from the site static server until the network is idle; weights are uncompressed response bodies, and their gzip size',
  lighthouse: `Lighthouse ${lighthouseVersion}, default configuration (mobile, simulated throttling), ${lighthouseRuns} runs per page, medians`,
  ...(build ? {} : { builds: 'not measured (--no-build)' }),
  ...Object.fromEntries(skipped.map(([path, scores]) => [`lighthouse ${path}`, scores.skipped])),
  ...Object.fromEntries(
    Object.entries(lighthouse)
      .filter(([, scores]) => scores.costly?.length)
      .map(([path, scores]) => [`lighthouse ${path} audits costing points (median run)`, scores.costly]),
  ),
};
writeFileSync(
  join(results, 'docs.json'),
  `${JSON.stringify({ benchmark: 'docs', measuredAt: new Date().toISOString(), machine, notes, figures }, null, 2)}\n`,
);
