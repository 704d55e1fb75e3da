#!/usr/bin/env node
/**
 * `npm test`: every tier in order, stopping at the first failure, with a timing summary.
 * A tier can be run alone: `node test/run-tiers.mjs unit int`. Runs on Node.js 24, fetched by
 * deploy/node-runtime.mjs when this Node is older; on a fresh clone, installs the lockfile first.
 */
import '../deploy/node-runtime.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const jest = (project, ...extra) => ['npx', ['jest', '--selectProjects', project, ...extra]];
const tiers = {
  build: ['npm', ['run', 'build']],
  typecheck: ['npx', ['tsc', '-p', 'tsconfig.json']],
  lint: ['npm', ['run', 'lint']],
  unit: jest('unit'),
  deploy: jest('deploy'),
  int: jest('int', '--runInBand'),
  e2e: jest('e2e', '--runInBand'),
  reliability: jest('reliability', '--runInBand'),
  docs: ['npm', ['run', 'docs:build']],
  browser: ['npm', ['run', 'test:browser', '--', '--runInBand']],
};

const chosen = process.argv.slice(2);
const order = chosen.length > 0 ? chosen : Object.keys(tiers);
const unknown = order.filter((name) => !tiers[name]);
if (unknown.length > 0) {
  console.error(`Unknown tier ${unknown.join(', ')}; tiers: ${Object.keys(tiers).join(', ')}`);
  process.exit(2);
}

// A fresh clone: the lockfile's dependencies, installed by the Node.js the tests run on.
const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  console.log('\n=== npm ci (no node_modules yet) ===');
  if (spawnSync('npm', ['ci'], { stdio: 'inherit', cwd: root }).status !== 0) process.exit(1);
}

/**
 * Committed files the build writes again. The tests that compare them with what generates them run
 * after the build, so they would pass on a stale file: the build tier fails when it changed one
 * (a clean clone's CI then names the file; a working tree holds the regenerated file for the commit).
 */
const generated = [
  'contracts/openapi.json',
  'contracts/openapi-3.0.json',
  'sdk/node/src/generated/openapi.ts',
  'helm/sesame/files/nats-permissions.json',
  'deploy/nats-authorization.conf',
];
const contentOf = (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : null);

const timings = [];
for (const name of order) {
  const tier = tiers[name];
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const before = name === 'build' ? generated.map(contentOf) : [];
  const result = spawnSync(tier[0], tier[1], { stdio: 'inherit', env: process.env });
  const stale = name === 'build' ? generated.filter((path, index) => contentOf(path) !== before[index]) : [];
  for (const path of stale) console.error(`${path} was stale: the build wrote it again; commit the regenerated file.`);
  const passed = result.status === 0 && stale.length === 0;
  timings.push([name, ((Date.now() - started) / 1000).toFixed(1), passed ? 'ok' : 'FAILED']);
  if (!passed) break;
}
console.log('\n=== summary ===');
for (const [name, seconds, outcome] of timings) console.log(`${name.padEnd(10)} ${seconds.padStart(7)} s  ${outcome}`);
process.exit(timings.every(([, , outcome]) => outcome === 'ok') && timings.length === order.length ? 0 : 1);
