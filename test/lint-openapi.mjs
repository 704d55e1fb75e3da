#!/usr/bin/env node
/**
 * `npm run openapi:lint`: Redocly's recommended rules (`redocly.yaml`) over the OpenAPI documents the
 * build writes, the 3.1 document and its 3.0 rendition (each validated as its own version). Redocly
 * exits 0 on warnings; here any problem, error or warning, fails.
 */
import { spawnSync } from 'node:child_process';

const apis = ['sesame', 'sesame-3.0'];

function lint(api) {
  const result = spawnSync('npx', ['redocly', 'lint', api, '--format=json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const start = result.stdout.indexOf('{');
  if (start < 0) {
    console.error(result.stderr);
    return false;
  }
  const { problems } = JSON.parse(result.stdout.slice(start));
  for (const problem of problems)
    console.error(
      `${api}: ${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location.map((l) => l.pointer).join(', ')}`,
    );
  console.log(`Redocly lint of ${api}: ${problems.length} problem(s)`);
  return problems.length === 0 && result.status === 0;
}

const results = apis.map(lint);
process.exit(results.every(Boolean) ? 0 : 1);
