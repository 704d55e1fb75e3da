import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from './types';

/**
 * Node SDK variants of the samples: `docs/samples/sdk/<sample id>.ts` exports
 * `snippet<'var' | ...>(async (sesame, v) => { ... })`. The e2e tier runs the function against the
 * system; the guides show its body, with `v.<name>` replaced by the variable's display value.
 */
const opening = /^export default snippet(<[^>]*>)?\(async \(sesame(, v)?\) => \{$/;
const variableUse = /\bv\.([a-z0-9_]+)\b/g;

/** The snippet source of a sample, when `<dir>/<id>.ts` exists. */
export function readSnippet(dir: string, id: string): string | undefined {
  const file = join(dir, `${id}.ts`);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** The lines of the snippet function's body, dedented, without its `return <name>;` statements. */
export function snippetBody(source: string): string {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => opening.test(line));
  const end = lines.lastIndexOf('});');
  if (start < 0 || end <= start) throw new Error('A snippet is `export default snippet(async (sesame, v) => { ... });`');
  return lines
    .slice(start + 1, end)
    .filter((line) => !/^\s*return [A-Za-z]\w*;$/.test(line))
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n')
    .trim();
}

/** Names of the sample variables a snippet reads (`v.org_domain`). */
export function snippetVariables(source: string): string[] {
  return [...new Set([...snippetBody(source).matchAll(variableUse)].map((match) => match[1]!))];
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The code the guides show: the body with display values (`${v.x}` inside a template, `v.x`
 * elsewhere); a template left without placeholder becomes a plain string.
 */
export function snippetCode(source: string, display: Record<string, string>): string {
  const value = (name: string) => {
    const text = display[name];
    if (text === undefined) throw new Error(`The snippet uses v.${name}, which is not a variable of its sample file`);
    return text;
  };
  return snippetBody(source)
    .replace(/\$\{v\.([a-z0-9_]+)\}/g, (_, name: string) => value(name).replace(/[`$\\]/g, '\\$&'))
    .replace(variableUse, (_, name: string) => quote(value(name)))
    .replace(/`([^`$\\'\n]*)`/g, "'$1'");
}

/** Problems of a snippet for its sample: unknown variables, an error sample that does not say its error. */
export function checkSnippet(sample: Sample, source: string, known: Set<string>): string[] {
  const problems: string[] = [];
  try {
    for (const name of snippetVariables(source))
      if (!known.has(name)) problems.push(`SDK snippet uses v.${name} before it is defined or captured`);
  } catch (error) {
    return [(error as Error).message];
  }
  const status = sample.response.status;
  if (status >= 400 && !(source.includes('SesameApiError') && source.includes(String(status))))
    problems.push(`SDK snippet of an error sample must say it rejects with a SesameApiError ${status}`);
  return problems;
}

/** What a snippet answered: its value (`success`) or the status and body of the `SesameApiError` it threw. */
export interface SnippetAnswer {
  status: number | 'success';
  body: unknown;
}

const isApiError = (error: unknown): error is { status: number; body: unknown } =>
  error instanceof Error && error.name === 'SesameApiError' && typeof (error as { status?: unknown }).status === 'number';

/** Runs a snippet function; an API error becomes an answer, any other error propagates. */
export async function executeSnippet<C>(
  run: (client: C, variables: Record<string, string>) => Promise<unknown>,
  client: C,
  variables: Record<string, string>,
): Promise<SnippetAnswer> {
  try {
    return { status: 'success', body: await run(client, variables) };
  } catch (error) {
    if (isApiError(error)) return { status: error.status, body: error.body };
    throw error;
  }
}
