import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Sample, SampleFile, SampleVariable } from './types';
import { builtinVariables } from './types';
import { checkSnippet, readSnippet } from './snippets';
import { parseOperation, variablesOf } from './template';

/** Folder of the sample files: `docs/samples`. */
export const samplesDir = resolve(__dirname, '..', '..', 'samples');

function fail(file: string, message: string): never {
  throw new Error(`${file}: ${message}`);
}

function checkSample(file: string, sample: Sample, known: Set<string>): void {
  const where = `${file} sample "${sample.id}"`;
  if (!/^[a-z0-9-]+$/.test(sample.id ?? '')) fail(file, `invalid sample id ${JSON.stringify(sample.id)}`);
  parseOperation(sample.operation);
  if (sample.auth !== 'bearer' && sample.auth !== 'none') fail(where, 'auth must be "bearer" or "none"');
  if (!Number.isInteger(sample.response?.status)) fail(where, 'response.status must be an integer');
  if (sample.request.json && sample.request.form) fail(where, 'a request has a JSON body or a form body, not both');
  for (const name of variablesOf(sample.request as never))
    if (!known.has(name)) fail(where, `request uses {{${name}}} before it is defined or captured`);
  if (sample.sdk !== undefined) for (const problem of checkSnippet(sample, sample.sdk, known)) fail(where, problem);
  for (const name of Object.keys(sample.capture ?? {})) known.add(name);
  for (const name of variablesOf(sample.response.body))
    if (!known.has(name)) fail(where, `response uses {{${name}}}, which is neither defined nor captured`);
}

/**
 * Parses and checks one sample file: ids, operations, and that variables are defined before use.
 * `sdkOf` gives the source of a sample's Node SDK snippet, if it has one.
 */
export function parseSampleFile(
  name: string,
  text: string,
  sdkOf: (id: string) => string | undefined = () => undefined,
): SampleFile {
  const file = `${name}.samples.json`;
  const raw = JSON.parse(text) as Omit<SampleFile, 'name'>;
  for (const sample of raw.samples ?? []) {
    if ('sdk' in sample) fail(file, `sample "${sample.id}": an SDK snippet lives in sdk/${sample.id}.ts, not in the JSON`);
    const sdk = sdkOf(sample.id);
    if (sdk !== undefined) sample.sdk = sdk;
  }
  const variables: Record<string, SampleVariable> = raw.variables ?? {};
  const known = new Set(Object.keys(builtinVariables));
  for (const [variable, definition] of Object.entries(variables)) {
    if (definition.source !== 'unique' && definition.source !== 'capture')
      fail(file, `variable ${variable}: source must be "unique" or "capture"`);
    if (definition.source === 'unique') known.add(variable);
  }
  if (!Array.isArray(raw.samples) || raw.samples.length === 0) fail(file, 'has no samples');
  for (const sample of raw.samples) checkSample(file, sample, known);
  for (const [variable, definition] of Object.entries(variables))
    if (definition.source === 'capture' && !raw.samples.some((sample) => sample.capture?.[variable]))
      fail(file, `variable ${variable} is never captured`);
  return { name, variables, samples: raw.samples };
}

/** Every sample file, sorted by name. Sample ids are unique across files. */
export function loadSampleFiles(dir = samplesDir): SampleFile[] {
  const files = readdirSync(dir)
    .filter((entry) => entry.endsWith('.samples.json'))
    .sort()
    .map((entry) =>
      parseSampleFile(entry.replace(/\.samples\.json$/, ''), readFileSync(join(dir, entry), 'utf8'), (id) =>
        readSnippet(join(dir, 'sdk'), id),
      ),
    );
  const seen = new Map<string, string>();
  for (const file of files)
    for (const sample of file.samples) {
      const other = seen.get(sample.id);
      if (other) throw new Error(`Sample id "${sample.id}" is used in ${other} and ${file.name}`);
      seen.set(sample.id, file.name);
    }
  const snippets = existsSync(join(dir, 'sdk')) ? readdirSync(join(dir, 'sdk')) : [];
  for (const entry of snippets)
    if (entry !== 'snippet.ts' && !seen.has(entry.replace(/\.ts$/, '')))
      throw new Error(`docs/samples/sdk/${entry} is the snippet of no sample`);
  return files;
}

/** Display values of a file's variables, for the documentation. */
export function displayVariables(file: SampleFile): Record<string, string> {
  return {
    ...builtinVariables,
    ...Object.fromEntries(Object.entries(file.variables).map(([name, variable]) => [name, variable.display])),
  };
}
