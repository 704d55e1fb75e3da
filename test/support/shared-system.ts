import { System } from './system';
import type { SystemDescription } from './system';

/** Where the e2e project's global setup leaves the shared system's description for the test files. */
export const sharedSystemVariable = 'SESAME_SHARED_SYSTEM';

/**
 * The system that the e2e files with default settings share (one `System.start` per test run instead
 * of one per file: `shared-system.global-setup.ts` starts it, the global teardown stops it and fails
 * the run on a NATS permission refusal). A file that uses it keeps to organizations, users and API
 * keys of its own, and neither kills, restarts nor stops a process, nor counts what other files made.
 */
export async function sharedSystem(): Promise<System> {
  const description = process.env[sharedSystemVariable];
  if (!description)
    throw new Error(
      `No shared system (${sharedSystemVariable} unset): run the file in the e2e project, whose global setup starts it`,
    );
  const system = System.attach(JSON.parse(description) as SystemDescription);
  await system.waitUntilReady();
  return system;
}
