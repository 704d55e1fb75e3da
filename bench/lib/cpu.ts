import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Figure } from './report';

/** Clock ticks per second of `/proc/<pid>/stat` times (`getconf CLK_TCK`, 100 on Linux almost always). */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) a process has used so far, from `/proc/<pid>/stat`; 0 once it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** CPU seconds each process used while `work` ran, and what `work` answered. */
export interface CpuUsage {
  byProcess: Record<string, number>;
  total: number;
}

/**
 * Runs `work` and measures the CPU seconds every named process spent meanwhile (Sesame's
 * processes and nats-server, from `processIds`), so a figure can say what one request costs in
 * CPU and not only in time. Includes this process when `self` is named (autocannon's own work is
 * left out otherwise).
 */
export async function withCpu<T>(
  processIds: () => Record<string, number>,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: CpuUsage }> {
  const ids = processIds();
  const before = Object.fromEntries(Object.entries(ids).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  const result = await work();
  const byProcess = Object.fromEntries(
    Object.entries(ids).map(([name, pid]) => [name, Math.max(0, cpuSecondsOf(pid) - (before[name] ?? 0))]),
  );
  return { result, cpu: { byProcess, total: Object.values(byProcess).reduce((sum, seconds) => sum + seconds, 0) } };
}

/** The CPU milliseconds one request cost, in all and (in the report's notes) per process. */
export function cpuPerRequestFigure(
  name: string,
  cpu: CpuUsage,
  requests: number,
  baseline?: { name: string; cpu: CpuUsage; requests: number },
): Figure {
  const perRequest = (usage: CpuUsage, count: number) => (count > 0 ? (usage.total * 1_000) / count : 0);
  return {
    name: `${name} CPU per request`,
    value: Number(perRequest(cpu, requests).toFixed(3)),
    unit: 'ms',
    ...(baseline
      ? {
          baseline: {
            name: `${baseline.name} CPU per request`,
            value: Number(perRequest(baseline.cpu, baseline.requests).toFixed(3)),
            unit: 'ms',
          },
        }
      : {}),
  };
}

/** Each process's share of a measurement, for a report's notes: CPU milliseconds per request by process. */
export function cpuBreakdown(cpu: CpuUsage, requests: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(cpu.byProcess).map(([name, seconds]) => [
      name,
      requests > 0 ? Number(((seconds * 1_000) / requests).toFixed(3)) : 0,
    ]),
  );
}

/**
 * Waits until the named processes are quiet: less than `idleShare` of one core between them over
 * half a second (by `/proc`), or `maxSeconds` passed. A measurement that follows a write-heavy one
 * starts once the writes' background work (projections, webhook fan-out) has drained, so that it
 * measures its own requests. Answers how long it waited.
 */
export async function settle(
  processIds: () => Record<string, number>,
  { idleShare = 0.1, maxSeconds = 60 } = {},
): Promise<number> {
  const started = Date.now();
  const usedSoFar = () => Object.values(processIds()).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  for (let before = usedSoFar(); Date.now() - started < maxSeconds * 1_000;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = usedSoFar();
    if (now - before < idleShare * 0.5) break;
    before = now;
  }
  return (Date.now() - started) / 1_000;
}
