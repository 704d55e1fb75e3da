import { spawnSync } from 'node:child_process';

/**
 * Int tier global setup: decides once whether the testcontainers suites can run here, with
 * testcontainers' own getContainerRuntimeClient(). It runs in a child process so that the
 * detection's sockets cannot keep the test run alive.
 */
export default function detectContainerRuntime(): void {
  if (process.env.SESAME_CONTAINER_RUNTIME) return;
  const script = `
    require('testcontainers').getContainerRuntimeClient()
      .then(() => { process.stdout.write('available'); process.exit(0); })
      .catch((error) => { process.stdout.write('unavailable: ' + String(error && error.message || error).split('\\n')[0]); process.exit(0); });`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000, cwd: __dirname });
  process.env.SESAME_CONTAINER_RUNTIME =
    result.stdout?.trim() || `unavailable: detection failed (${result.error?.message ?? `exit ${result.status}`})`;
}
