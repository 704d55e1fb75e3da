#!/usr/bin/env node
/** `npm run bench`: every `bench/*.bench.ts` (or the ones named), one after the other, on Node.js 24; then the targets (`targets.mjs`). */
import '../deploy/node-runtime.mjs';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const chosen = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => chosen.length === 0 || chosen.some((name) => file.startsWith(name)));
let failed = false;
for (const script of scripts) {
  console.log(`\n### ${script}`);
  const result = spawnSync('npx', ['tsx', '--tsconfig', join(here, '..', 'tsconfig.json'), join(here, script)], {
    stdio: 'inherit',
  });
  failed ||= result.status !== 0;
}
// The targets, from the results the scripts wrote (those of this run, and earlier runs' for scripts not run now).
failed ||= spawnSync(process.execPath, [join(here, 'targets.mjs')], { stdio: 'inherit' }).status !== 0;
process.exit(failed ? 1 : 0);
