import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerConfig } from '@sesame/platform/messaging';
import type { NatsUser } from '@sesame/platform/messaging';
import { freePort } from './free-port';

const binary = process.env.SESAME_NATS_SERVER_BINARY ?? '/usr/sbin/nats-server';

export interface PrivateNatsDescription {
  port: number;
  storeDir: string;
  logFile: string;
}

/**
 * A NATS server with JetStream of a test's own, on a free port of 127.0.0.1 with its own store
 * directory and users (the generated configuration of `npm start`): a test may kill and restart it
 * without touching the machine's shared server, and nobody connects without credentials.
 */
export class PrivateNats {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    readonly storeDir: string,
    readonly logFile: string,
  ) {}

  /** The server's process id while it runs (benchmarks read its CPU time). */
  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  private get configFile(): string {
    return join(this.storeDir, 'nats.conf');
  }

  static async start(logDir: string, users: NatsUser[]): Promise<PrivateNats> {
    const nats = new PrivateNats(await freePort(), mkdtempSync(join(tmpdir(), 'sesame-nats-')), join(logDir, 'nats-server.log'));
    const config = natsServerConfig({ host: '127.0.0.1', port: nats.port, storeDir: join(nats.storeDir, 'store'), users });
    writeFileSync(nats.configFile, config, { mode: 0o600 });
    await nats.run();
    return nats;
  }

  /** The server another process of the test run started (the shared system's): its logs, never its process. */
  static attach(description: PrivateNatsDescription): PrivateNats {
    return new PrivateNats(description.port, description.storeDir, description.logFile);
  }

  describe(): PrivateNatsDescription {
    return { port: this.port, storeDir: this.storeDir, logFile: this.logFile };
  }

  /** Starts the server (again) on the same port, store and configuration. */
  async run(): Promise<void> {
    const child = spawn(binary, ['-c', this.configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(this.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.child = child;
    const started = Date.now();
    while (!(await accepts(this.port))) {
      if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}; see ${this.logFile}`);
      if (Date.now() - started > 30_000) throw new Error(`nats-server not listening after 30 s; see ${this.logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The publish and subscribe permission violations the server logged for connections named `<name>...`. */
  violations(namePrefix: string): string[] {
    if (!existsSync(this.logFile)) return [];
    return readFileSync(this.logFile, 'utf8')
      .split('\n')
      .filter((line) => / - (Publish|Subscription) Violation - /.test(line) && line.includes(`:${namePrefix}`));
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill('SIGTERM');
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
