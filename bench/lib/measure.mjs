import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { freePort, repoRoot } from './system.mjs';

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Runs `operation(i)` `total` times with `concurrency` in flight: throughput and latency percentiles. */
export async function measureOperations(total, concurrency, operation) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        const begin = performance.now();
        try {
          await operation(index);
        } catch (error) {
          failures++;
          if (failures === 1) console.error('first failure:', error);
        }
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    operations: total,
    concurrency,
    failures,
    ops_per_second: round(total / seconds, 1),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    max_ms: round(latencies.at(-1) ?? 0),
  };
}

/** autocannon against one URL; `requests` may vary each request (autocannon's setupRequest). */
export async function httpLoad({ url, connections, duration, headers = {}, requests }) {
  const result = await autocannon({ url, connections, duration, headers, ...(requests ? { requests } : {}) });
  return {
    connections,
    duration_s: duration,
    requests_per_second: round(result.requests.average, 1),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
    total_requests: result.requests.total,
  };
}

/** A bare Fastify hello-world in its own process, as the raw baseline of HTTP figures. */
export async function startBareFastify() {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const app = require('fastify')(); app.get('/', async () => ({ hello: 'world' })); app.listen({ port: ${port}, host: '127.0.0.1' });`,
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  const url = `http://127.0.0.1:${port}/`;
  while (
    !(await fetch(url).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 50));
  return { url, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) };
}

export const machine = () => ({ cpus: cpus().length, cpu_model: cpus()[0]?.model, load_average_1m: round(loadavg()[0] ?? 0) });
