#!/usr/bin/env node
/** `npm run bench`: every `bench/*.bench.mjs` in turn (pass `--quick` for short runs). */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let failed = false;
for (const file of readdirSync(here)
  .filter((name) => name.endsWith('.bench.mjs'))
  .sort()) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, [join(here, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
