#!/usr/bin/env node
/**
 * `npm test`: every tier in order, stopping at the first failure, with a timing summary.
 * A tier can be run alone: `node test/run-tiers.mjs unit int`.
 */
import { spawnSync } from 'node:child_process';

const jest = (project, ...extra) => ['npx', ['jest', '--selectProjects', project, ...extra]];
const tiers = {
  build: ['npm', ['run', 'build']],
  typecheck: ['npx', ['tsc', '-p', 'tsconfig.json']],
  lint: ['npm', ['run', 'lint']],
  unit: jest('unit'),
  int: jest('int', '--runInBand'),
  e2e: jest('e2e', '--runInBand'),
  reliability: jest('reliability', '--runInBand'),
  docs: ['npm', ['run', 'docs:build']],
  browser: ['npm', ['run', 'test:browser', '--', '--runInBand']],
};

const chosen = process.argv.slice(2);
const order = chosen.length > 0 ? chosen : Object.keys(tiers);
const timings = [];
for (const name of order) {
  const tier = tiers[name];
  if (!tier) {
    console.error(`Unknown tier ${name}; tiers: ${Object.keys(tiers).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(tier[0], tier[1], { stdio: 'inherit', env: process.env });
  timings.push([name, ((Date.now() - started) / 1000).toFixed(1), result.status === 0 ? 'ok' : 'FAILED']);
  if (result.status !== 0) break;
}
console.log('\n=== summary ===');
for (const [name, seconds, outcome] of timings) console.log(`${name.padEnd(10)} ${seconds.padStart(7)} s  ${outcome}`);
process.exit(timings.every(([, , outcome]) => outcome === 'ok') && timings.length === order.length ? 0 : 1);
