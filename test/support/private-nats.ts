import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const binary = process.env.SESAME_NATS_SERVER_BINARY ?? '/usr/sbin/nats-server';

/**
 * A NATS server with JetStream of a test's own, on a free port of 127.0.0.1 with its own store
 * directory: a test may kill and restart it without touching the machine's shared server.
 */
export class PrivateNats {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    readonly storeDir: string,
    private readonly logFile: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(logDir: string): Promise<PrivateNats> {
    const nats = new PrivateNats(await freePort(), mkdtempSync(join(tmpdir(), 'sesame-nats-')), join(logDir, 'nats-server.log'));
    await nats.run();
    return nats;
  }

  /** Starts the server (again) on the same port and store. */
  async run(): Promise<void> {
    const child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(this.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.child = child;
    const started = Date.now();
    while (!(await accepts(this.port))) {
      if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}; see ${this.logFile}`);
      if (Date.now() - started > 30_000) throw new Error(`nats-server not listening after 30 s; see ${this.logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
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
