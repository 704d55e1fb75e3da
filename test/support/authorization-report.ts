import type { Operation } from '@sesame/contracts';
import { describe } from './authorization-cells';
import type { Column } from './authorization-cells';
import type { CellResult } from './authorization-judge';

const columns: Column[] = ['a', 'b', 'c', 'd', 'owner'];

/** A failing cell as the lead reads it: operation, cell, victim, why; the request, the answer, what was expected. */
export function failingCell(result: CellResult): string {
  const { template, name, victim } = result.cell;
  const variant = template.variant ? ` (${template.variant})` : '';
  return [
    `${template.operation.operationId}${variant} ${name} on ${describe(victim)}: ${result.failure}`,
    `    request:  ${result.request}`,
    `    answer:   ${result.answer}`,
    `    expected: ${result.expected}`,
  ].join('\n');
}

/** One line per operation with its cells per column (ok, FAIL, n/a counts), then every failing cell. */
export function matrixReport(operations: Operation[], results: CellResult[]): string {
  const rows = operations.map((operation) => {
    const mine = results.filter((result) => result.cell.template.operation.operationId === operation.operationId);
    return [`${operation.method.toUpperCase()} ${operation.path}`, ...columns.map((column) => summary(mine, column))];
  });
  const header = ['operation', ...columns];
  const widths = header.map((_, index) => Math.max(...[header, ...rows].map((row) => (row[index] as string).length)));
  const line = (row: string[]) => row.map((text, index) => text.padEnd(widths[index] as number)).join(' | ');
  const failing = results.filter((result) => result.outcome === 'fail').map((result) => `- ${failingCell(result)}`);
  const totals = ['pass', 'fail', 'n/a'].map(
    (outcome) => `${results.filter((result) => result.outcome === outcome).length} ${outcome}`,
  );
  return [
    `Authorization matrix: ${operations.length} operations, ${results.length} cells (${totals.join(', ')})`,
    'a: no credentials; b: the other environment; c: every scope but the operation’s; d: the other organization; owner: the request itself',
    line(header),
    ...rows.map(line),
    '',
    `Failing cells (${failing.length}):`,
    ...failing,
  ].join('\n');
}

function summary(results: CellResult[], column: Column): string {
  const of = results.filter((result) => result.cell.column === column);
  const count = (outcome: CellResult['outcome']) => of.filter((result) => result.outcome === outcome).length;
  const parts = [count('pass') && `ok ${count('pass')}`, count('fail') && `FAIL ${count('fail')}`, count('n/a') && 'n/a'];
  return parts.filter(Boolean).join(' ');
}

/** Every cell, one line each, for whoever audits a run: what was sent, what came back, the verdict. */
export function allCells(results: CellResult[]): string {
  return results
    .map((result) => {
      const { template, name, victim } = result.cell;
      const variant = template.variant ? ` (${template.variant})` : '';
      const what =
        result.outcome === 'n/a' ? (result.cell.notApplicable ?? '') : `${result.request} → ${result.answer?.slice(0, 120)}`;
      const line = `${result.outcome.padEnd(4)} ${template.operation.operationId}${variant} ${name} on ${describe(victim)}: ${what}`;
      return line.replace(/\s+/g, ' ');
    })
    .join('\n');
}
