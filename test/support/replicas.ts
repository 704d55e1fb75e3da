import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';
import { processEntries, repoRoot } from './system';
import type { ProcessName, System } from './system';

/** One more process of a system: same prefix, NATS and keys, its own HTTP port (kept across restarts). */
class Replica {
  private child: ChildProcess | undefined;

  constructor(
    private readonly system: System,
    readonly name: ProcessName,
    private readonly env: Record<string, string>,
    readonly port: number,
    readonly label: string,
  ) {}

  /** The gateway's public API, or a service's probes. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [join(repoRoot, processEntries[this.name])], {
      cwd: repoRoot,
      env: { ...this.system.envOf(this.name), SESAME_HTTP_PORT: String(this.port), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(join(this.system.logDir, `${this.label}.log`), { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.child = child;
    await waitUntilReady(this.url, () => child.exitCode, `${this.label}; see ${this.system.logDir}`);
  }

  /** Stops it (SIGTERM: a graceful stop, as Kubernetes stops a pod) and answers its exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    return child.exitCode;
  }
}

/**
 * A second replica of each process of a system (the system's own are the first): services share
 * their work through NATS queue groups and durable consumers, gateways the rate limits and
 * idempotency keys through key-value buckets. `rollingRestart` replaces every process one at a
 * time, each new one ready before the next goes, as a Helm upgrade of a Deployment does.
 */
export class Replicas {
  private constructor(
    private readonly system: System,
    private readonly replicas: Replica[],
  ) {}

  static async start(
    system: System,
    names: ProcessName[],
    processEnv: Partial<Record<ProcessName, Record<string, string>>> = {},
  ): Promise<Replicas> {
    const replicas: Replica[] = [];
    for (const name of names) replicas.push(new Replica(system, name, processEnv[name] ?? {}, await freePort(), `${name}-2`));
    const started = new Replicas(system, replicas);
    try {
      await Promise.all(replicas.map((replica) => replica.start()));
    } catch (error) {
      await started.stop().catch(() => undefined);
      throw error;
    }
    return started;
  }

  /** Every gateway's public URL, the system's first. */
  get gatewayUrls(): string[] {
    return [this.system.baseUrl, ...this.replicas.filter((replica) => replica.name === 'gateway').map((replica) => replica.url)];
  }

  /**
   * Replaces each process, first the system's then its second replica, one at a time: stopped
   * (SIGTERM), started again, ready (its own /readyz) before the next. Answers how long each took.
   */
  async rollingRestart(names: ProcessName[]): Promise<Record<string, number>> {
    const took: Record<string, number> = {};
    for (const name of names) {
      let started = Date.now();
      await this.system.restart([name]);
      await waitUntilServing(this.system, [name]);
      took[name] = Date.now() - started;
      for (const replica of this.replicas.filter((candidate) => candidate.name === name)) {
        started = Date.now();
        const exit = await replica.stop();
        if (exit !== 0) throw new Error(`${replica.label} exited with ${exit} on SIGTERM; see ${this.system.logDir}`);
        await replica.start();
        took[replica.label] = Date.now() - started;
      }
    }
    return took;
  }

  /** Stops the replicas of `names` (all by default) gracefully; fails when one did not stop cleanly (exit code 0). */
  async stop(names?: ProcessName[]): Promise<void> {
    const stopping = this.replicas.filter((replica) => !names || names.includes(replica.name));
    const exits = await Promise.all(stopping.map(async (replica) => [replica.label, await replica.stop()] as const));
    const unclean = exits.filter(([, exit]) => exit !== 0 && exit !== null);
    if (unclean.length > 0)
      throw new Error(`Not stopped cleanly on SIGTERM: ${unclean.map(([label, exit]) => `${label} (exit ${exit})`).join(', ')}`);
  }
}

/**
 * Resolves once each of the system's own processes `names` answers its own /readyz: the gateway's
 * readiness asks the services through NATS, where another replica may answer for a process still
 * rebuilding its read models.
 */
export async function waitUntilServing(system: System, names: ProcessName[]): Promise<void> {
  for (const name of names) {
    const port = name === 'gateway' ? system.gatewayPort : system.httpPorts.get(name);
    await waitUntilReady(`http://127.0.0.1:${port}`, () => null, name);
  }
}

async function waitUntilReady(url: string, exitCode: () => number | null, what: string, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    if (exitCode() !== null) throw new Error(`${what} exited with ${exitCode()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
