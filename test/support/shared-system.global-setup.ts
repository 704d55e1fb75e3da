import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, System } from './system';
import { sharedSystemVariable } from './shared-system';

/** The one running system of the run, between global setup and teardown (same Node.js realm). */
const key = Symbol.for('sesame.sharedSystem');
type Holder = { [key]?: System };

interface ChosenFiles {
  rootDir: string;
  testPathPatterns?: { isSet(): boolean; toExecutor(options: { rootDir: string }): { isMatch(path: string): boolean } };
}

const e2eFolders = ['test/e2e', 'docs/test'];

/** The e2e files this run chose (by path pattern, as jest does) that call `sharedSystem()`. */
function chosenSharedFiles(config: ChosenFiles): string[] {
  const executor = config.testPathPatterns?.isSet() ? config.testPathPatterns.toExecutor({ rootDir: config.rootDir }) : undefined;
  return e2eFolders
    .flatMap((folder) => readdirSync(join(repoRoot, folder)).map((name) => join(repoRoot, folder, name)))
    .filter((path) => path.endsWith('.e2e.spec.ts') && (executor?.isMatch(path) ?? true))
    .filter((path) => readFileSync(path, 'utf8').includes('sharedSystem()'));
}

/** Starts the shared system when a chosen file uses it (a run of other files alone pays nothing). */
export default async function startSharedSystem(globalConfig: ChosenFiles): Promise<void> {
  const files = chosenSharedFiles(globalConfig);
  if (files.length === 0) return;
  const started = Date.now();
  const system = await System.start();
  (globalThis as Holder)[key] = system;
  process.env[sharedSystemVariable] = JSON.stringify(system.describe());
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\nShared system ${system.prefix} ready in ${seconds} s for ${files.length} files (logs: ${system.logDir})\n`,
  );
}

/** Stops the shared system: fails the run when NATS refused one of its processes a subject. */
export async function stopSharedSystem(): Promise<void> {
  const system = (globalThis as Holder)[key];
  delete (globalThis as Holder)[key];
  await system?.stop();
}
