import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { System } from './system';

/** Every process log of `system` so far (`test-results/e2e/<prefix>/*.log`), concatenated. */
export function processLogs(system: Pick<System, 'logDir'>): string {
  return readdirSync(system.logDir)
    .filter((file) => file.endsWith('.log'))
    .map((file) => readFileSync(join(system.logDir, file), 'utf8'))
    .join('');
}

/** The parsed log lines of `system` whose text contains `marker`, once there is one (logs are written asynchronously). */
export async function logLinesWith(system: Pick<System, 'logDir'>, marker: string, timeoutMs = 10_000) {
  const started = Date.now();
  for (;;) {
    const lines = processLogs(system)
      .split('\n')
      .filter((line) => line.includes(marker));
    if (lines.length > 0) return lines.map((line) => JSON.parse(line) as Record<string, any>);
    if (Date.now() - started > timeoutMs) throw new Error(`no log line with ${marker} in ${system.logDir}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
