#!/usr/bin/env node
/**
 * The performance targets (issue 18), each read from `bench/results/*.json` as the benchmarks last
 * wrote them: the measured figure, its baseline of the same run, the ratio where the target is one,
 * and whether it is met. Printed as a table and written to `bench/results/targets.json`; a target
 * whose benchmark has not run (or no longer reports the figure) is listed as not measured.
 *
 * `npm run bench` runs it last; alone: node bench/targets.mjs
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const results = join(dirname(fileURLToPath(import.meta.url)), 'results');

/** Every benchmark's figures by name, with when it ran and the load average then. */
function readResults() {
  const benchmarks = {};
  for (const file of readdirSync(results).filter((name) => name.endsWith('.json') && name !== 'targets.json')) {
    const parsed = JSON.parse(readFileSync(join(results, file), 'utf8'));
    if (!Array.isArray(parsed.figures)) continue;
    benchmarks[parsed.benchmark] = {
      measuredAt: parsed.measuredAt,
      loadavg: parsed.machine?.loadavg,
      figures: Object.fromEntries(parsed.figures.map((figure) => [figure.name, figure])),
    };
  }
  return benchmarks;
}

const mixOperations = [
  'GET user by id',
  'GET organizations (page of 10)',
  'POST user',
  'POST organization',
  'SCIM POST /Users',
  'SCIM PATCH /Users/{id}',
  'POST /oauth/token (client_credentials)',
  'POST /api/v2/password-challenge',
];
const scimFilters = [
  'userName eq',
  'externalId eq',
  'emails.value eq',
  'emails[type eq "work"].value eq (Entra ID)',
  'displayName eq',
];

/**
 * Each target: the benchmark and figure it reads, and either an upper or lower bound on the value
 * (`atMost`, `atLeast`), or a lower bound on its ratio to a baseline (`ratioAtLeast`, the baseline
 * being the figure's own, or `over`: another figure of the same benchmark).
 */
const targets = [
  {
    target: 'mix: CPU per request at most 1.5x the same requests alone',
    bench: 'load',
    figure: 'mix CPU over CPU alone',
    atMost: 1.5,
  },
  ...mixOperations.map((operation) => ({
    target: `mix: ${operation} p99 under 100 ms`,
    bench: 'load',
    figure: `${operation} p99`,
    atMost: 100,
  })),
  {
    target: 'mix: event to webhook delivery p99 under 1 s',
    bench: 'load',
    figure: 'webhook deliveries (event to delivery) p99',
    atMost: 1_000,
  },
  { target: 'mix: at least 800 requests/s in all (5x 160)', bench: 'load', figure: 'whole mix req/s', atLeast: 800 },
  {
    target: 'GET user by id through the gateway at least 0.8x the raw hop',
    bench: 'identity',
    figure: 'GET user by id req/s',
    ratioAtLeast: 0.8,
  },
  {
    target: 'POST user through the gateway at least 0.6x the in-process command path',
    bench: 'identity',
    figure: 'POST user through the gateway req/s',
    over: 'user creation (reserve + append + projection) users/s',
    ratioAtLeast: 0.6,
  },
  {
    target: 'client_credentials grants at least 0.6x raw RS256 signing (one core)',
    bench: 'foundation',
    figure: 'token grants (client_credentials) /s',
    ratioAtLeast: 0.6,
  },
  {
    target: 'code exchanges at least 0.4x raw RS256 signing',
    bench: 'signin',
    figure: 'authorization-code exchanges ops/s',
    ratioAtLeast: 0.4,
  },
  {
    target: 'password challenges at least 0.9x raw argon2id (same concurrency)',
    bench: 'signin',
    figure: 'password challenges ops/s',
    ratioAtLeast: 0.9,
  },
  {
    target: 'webhooks: at least 2,000 deliveries/s',
    bench: 'webhooks',
    figure: 'deliveries per second (whole system, local receiver)',
    atLeast: 2_000,
  },
  {
    target: 'webhooks: 10,000-job backlog, event to first attempt p99 under 5 s',
    bench: 'webhooks',
    figure: 'event to first attempt, 10,000-job backlog, p99',
    atMost: 5_000,
  },
  ...scimFilters.map((filter) => ({
    target: `SCIM at scale: ${filter} p99 under 20 ms`,
    bench: 'scim',
    figure: `SCIM ${filter} lookup p99`,
    atMost: 20,
  })),
  { target: 'SCIM at scale: provisioning at least 500 users/s', bench: 'scim', figure: /^SCIM provisioning of/, atLeast: 500 },
];

const round = (value) => (Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100);

/** One target's outcome: what was measured against what, and whether it is met (null: not measured). */
function evaluate(target, benchmarks) {
  const bench = benchmarks[target.bench];
  const figures = bench?.figures ?? {};
  const figure =
    target.figure instanceof RegExp
      ? Object.values(figures).find((candidate) => target.figure.test(candidate.name))
      : figures[target.figure];
  if (!figure) return { target: target.target, met: null, measured: `not measured (${target.bench})` };
  const measured = `${round(figure.value)} ${figure.unit}`;
  const when = { measuredAt: bench.measuredAt, loadavg: bench.loadavg?.map(round) };
  if (target.ratioAtLeast !== undefined) {
    const baseline = target.over ? { ...figures[target.over], name: target.over } : figure.baseline;
    if (!baseline?.value) return { target: target.target, met: null, measured, baseline: 'no baseline in the run', ...when };
    const ratio = figure.value / baseline.value;
    return {
      target: target.target,
      met: ratio >= target.ratioAtLeast,
      measured,
      baseline: `${baseline.name}: ${round(baseline.value)} ${baseline.unit}`,
      ratio: round(ratio),
      ...when,
    };
  }
  const met = target.atMost !== undefined ? figure.value <= target.atMost : figure.value >= target.atLeast;
  return {
    target: target.target,
    met,
    measured,
    ...(figure.baseline ? { baseline: `${figure.baseline.name}: ${round(figure.baseline.value)} ${figure.baseline.unit}` } : {}),
    ...when,
  };
}

function main() {
  if (!existsSync(results)) {
    console.error(`No results yet in ${results}: run npm run bench first.`);
    process.exit(1);
  }
  const outcomes = targets.map((target) => evaluate(target, readResults()));
  console.log('\n### targets (issue 18), from bench/results/*.json');
  for (const outcome of outcomes) {
    const mark = outcome.met === null ? 'n/a ' : outcome.met ? 'met ' : 'NOT ';
    const ratio = outcome.ratio !== undefined ? ` (ratio ${outcome.ratio})` : '';
    const baseline = outcome.baseline ? `   vs ${outcome.baseline}` : '';
    console.log(`  ${mark} ${outcome.target.padEnd(72)} ${outcome.measured}${ratio}${baseline}`);
  }
  const met = outcomes.filter((outcome) => outcome.met === true).length;
  console.log(`  ${met} of ${outcomes.length} met`);
  writeFileSync(
    join(results, 'targets.json'),
    `${JSON.stringify({ evaluatedAt: new Date().toISOString(), outcomes }, null, 2)}\n`,
  );
}

main();
