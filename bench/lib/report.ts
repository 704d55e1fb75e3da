import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import type { Timed } from './timing';

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

/** The rate, p50 and p99 of an operation, each next to the same figure of its raw baseline. */
export function figuresAgainst(
  name: string,
  measured: Timed & { unit: string },
  baseline: Timed & { name: string; unit: string },
): Figure[] {
  return [
    {
      name: `${name} ${measured.unit}`,
      value: measured.perSecond,
      unit: measured.unit,
      baseline: { name: baseline.name, value: baseline.perSecond, unit: baseline.unit },
    },
    {
      name: `${name} p50`,
      value: measured.p50,
      unit: 'ms',
      baseline: { name: `${baseline.name} p50`, value: baseline.p50, unit: 'ms' },
    },
    {
      name: `${name} p99`,
      value: measured.p99,
      unit: 'ms',
      baseline: { name: `${baseline.name} p99`, value: baseline.p99, unit: 'ms' },
    },
  ];
}
