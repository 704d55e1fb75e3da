import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The raw baseline measured in the same run, when there is one. */
  baseline?: { name: string; value: number; unit: string };
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  return sortedMs[Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1)] as number;
}

const round = (value: number) => (value >= 100 ? Math.round(value) : Math.round(value * 100) / 100);

/** Prints the figures as a table and writes `bench/results/<name>.json`. */
export function report(benchmark: string, figures: Figure[], notes: Record<string, unknown> = {}): void {
  console.log(`\n${benchmark}`);
  for (const figure of figures) {
    const base = figure.baseline
      ? `   vs ${figure.baseline.name}: ${round(figure.baseline.value)} ${figure.baseline.unit} (ratio ${round(figure.value / figure.baseline.value)})`
      : '';
    console.log(`  ${figure.name.padEnd(48)} ${String(round(figure.value)).padStart(9)} ${figure.unit}${base}`);
  }
  const directory = join(__dirname, '..', 'results');
  mkdirSync(directory, { recursive: true });
  const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() };
  writeFileSync(
    join(directory, `${benchmark}.json`),
    `${JSON.stringify({ benchmark, measuredAt: new Date().toISOString(), machine, notes, figures }, null, 2)}\n`,
  );
}
