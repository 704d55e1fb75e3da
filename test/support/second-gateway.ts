import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';
import { processEntries, repoRoot } from './system';
import type { System } from './system';

export interface SecondGateway {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A second gateway replica of `system` (same NATS prefix, issuer and audience), its log beside the others'. */
export async function startSecondGateway(system: System): Promise<SecondGateway> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(repoRoot, processEntries.gateway)], {
    cwd: repoRoot,
    env: { ...system.env, SESAME_HTTP_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(system.logDir, 'gateway-2.log'), { flags: 'a' });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (
    !(await fetch(`${url}/readyz`).then(
      (answer) => answer.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() - started > 60_000)
      throw new Error(`second gateway not ready; see ${system.logDir}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, child, stop };
}
