import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import type { ConnectionOptions, JetStreamManager } from 'nats';
import { natsServerConfig } from '@sesame/platform/messaging';
import type { NatsUser } from '@sesame/platform/messaging';
import { NetworkNamespaces } from './network-namespaces';
import { waitUntilFeedsCaughtUp, waitUntilFeedsMove } from './event-feeds';

/**
 * The nats-server the cluster runs: `SESAME_CLUSTER_NATS_SERVER_BINARY`, else one of 2.11 or later
 * (`deploy/cluster-nats-server.mjs`: the system's when recent enough, else Debian's newest, fetched
 * once into `.tools/`), or why there is none. Before 2.11 a new stream leader answers writes before
 * applying its log, and the expected-sequence checks Sesame relies on fail across a leader change.
 */
function clusterBinary(): { binary: string } | { unsupported: string } {
  const chosen = process.env.SESAME_CLUSTER_NATS_SERVER_BINARY;
  if (chosen) return { binary: chosen };
  const script = join(__dirname, '..', '..', 'deploy', 'cluster-nats-server.mjs');
  const found = spawnSync(process.execPath, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const binary = found.stdout.trim();
  if (found.status === 0 && binary) return { binary };
  return { unsupported: found.stderr.trim().split('\n').pop() || `${script} exited with ${found.status}` };
}

const server = clusterBinary();
const clientPort = 4222;
const routePort = 6222;

/**
 * A real NATS JetStream cluster of a test's own: three nats-servers (by default), each on its own
 * host (a network namespace, `NetworkNamespaces`) with its own store, routed to the others, with
 * Sesame's users and permissions (`natsServerConfig`, as for `PrivateNats`). A test kills, restarts
 * and partitions nodes, and asks which node leads a stream. `stop` removes the namespaces and the
 * stores whatever happened.
 */
export class NatsCluster {
  /** The version of the nats-server the nodes run (what `--version` prints), or null when there is none. */
  static version(): string | null {
    if ('unsupported' in server) return null;
    return spawnSync(server.binary, ['--version'], { encoding: 'utf8' }).stdout.trim() || null;
  }

  /** Why no cluster can run here (no nats-server 2.11 or later to be had), or null. */
  static unsupported(): string | null {
    return 'unsupported' in server ? server.unsupported : null;
  }

  private readonly children: (ChildProcess | undefined)[];

  private constructor(
    private readonly hosts: NetworkNamespaces,
    private readonly storeDir: string,
    private readonly logDir: string,
    readonly size: number,
  ) {
    this.children = Array.from({ length: size }, () => undefined);
  }

  static async start(logDir: string, users: NatsUser[], size = 3): Promise<NatsCluster> {
    const hosts = NetworkNamespaces.create(size);
    const cluster = new NatsCluster(hosts, mkdtempSync(join(tmpdir(), 'sesame-nats-cluster-')), logDir, size);
    live.add(cluster);
    try {
      for (let index = 0; index < size; index++) cluster.configure(index, users);
      await cluster.run();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** Every node's client URL, comma-separated (SESAME_NATS_URL). */
  get url(): string {
    return this.nodes.map((index) => this.nodeUrl(index)).join(',');
  }

  /** No single server process: benchmarks read a PrivateNats' CPU time, not a cluster's. */
  get pid(): number | undefined {
    return undefined;
  }

  get nodes(): number[] {
    return Array.from({ length: this.size }, (_, index) => index);
  }

  nodeUrl(index: number): string {
    return `nats://${this.hosts.address(index)}:${clientPort}`;
  }

  /** The server_name of node `index` (what JetStream names a stream's leader and replicas by). */
  serverName(index: number): string {
    return `n${index + 1}`;
  }

  private configFile(index: number): string {
    return join(this.storeDir, `${this.serverName(index)}.conf`);
  }

  private logFile(index: number): string {
    return join(this.logDir, `nats-${this.serverName(index)}.log`);
  }

  private configure(index: number, users: NatsUser[]): void {
    const storeDir = join(this.storeDir, this.serverName(index));
    mkdirSync(storeDir);
    const routes = this.nodes
      .filter((other) => other !== index)
      .map((other) => `nats-route://${this.hosts.address(other)}:${routePort}`);
    const cluster = [
      `server_name: ${JSON.stringify(this.serverName(index))}\n`,
      `cluster {\n  name: ${JSON.stringify(`sesame-${this.hosts.runId}`)}\n`,
      `  listen: ${JSON.stringify(`${this.hosts.address(index)}:${routePort}`)}\n`,
      `  routes: [${routes.map((route) => JSON.stringify(route)).join(', ')}]\n}\n`,
    ].join('');
    const config = natsServerConfig({ host: this.hosts.address(index), port: clientPort, storeDir, users });
    writeFileSync(this.configFile(index), `${cluster}${config}`, { mode: 0o600 });
  }

  /** Starts every node that is not running (again, on its store), and waits for each to listen. */
  async run(): Promise<void> {
    await Promise.all(this.nodes.filter((index) => !this.running(index)).map((index) => this.startNode(index)));
  }

  /** Starts node `index` again on its store and configuration. */
  async startNode(index: number): Promise<void> {
    if ('unsupported' in server) throw new Error(server.unsupported);
    const [command, ...args] = this.hosts.exec(index, [server.binary, '-c', this.configFile(index)]);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(this.logFile(index), { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.children[index] = child;
    const started = Date.now();
    while (!(await accepts(this.hosts.address(index), clientPort))) {
      if (child.exitCode !== null)
        throw new Error(`nats-server ${this.serverName(index)} exited with ${child.exitCode}; see ${this.logFile(index)}`);
      if (Date.now() - started > 30_000) throw new Error(`nats-server ${this.serverName(index)} not listening after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private running(index: number): boolean {
    const child = this.children[index];
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Kills node `index` (`SIGKILL` by default: kill -9) and waits for it to exit. */
  async killNode(index: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.children[index];
    if (!child || !this.running(index)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  /** Freezes node `index` (`SIGSTOP`): it holds its connections and answers nothing until `resume`. */
  pause(index: number): void {
    if (this.running(index)) this.children[index]?.kill('SIGSTOP');
  }

  resume(index: number): void {
    if (this.running(index)) this.children[index]?.kill('SIGCONT');
  }

  /** Kills every node. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await Promise.all(this.nodes.map((index) => this.killNode(index, signal)));
  }

  /** Cuts node `index` off the others and off every client (its veth down), until `heal`. */
  partition(index: number): void {
    this.hosts.partition(index);
  }

  heal(index: number): void {
    this.hosts.heal(index);
  }

  /**
   * Resolves once the cluster places a stream on every running node: a meta leader elected, every
   * node routed to the others (a probe stream of that many replicas is created, then deleted).
   */
  async waitUntilReady(options: ConnectionOptions, timeoutMs = 60_000): Promise<void> {
    const started = Date.now();
    const replicas = this.nodes.filter((node) => this.running(node)).length;
    for (;;) {
      const failure = await this.placeProbeStream(options, replicas);
      if (failure === undefined) return;
      if (Date.now() - started > timeoutMs) throw new Error(`JetStream cluster not ready after ${timeoutMs} ms: ${failure}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private async placeProbeStream(options: ConnectionOptions, replicas: number): Promise<string | undefined> {
    const nc = await connect({ ...options, servers: this.nodes.map((index) => this.nodeUrl(index)), timeout: 2_000 }).catch(
      (error: unknown) => String(error),
    );
    if (typeof nc === 'string') return nc;
    const name = `CLUSTER_PROBE_${this.hosts.runId}`;
    try {
      const jsm = await nc.jetstreamManager({ timeout: 5_000 });
      await jsm.streams.add({ name, subjects: [`cluster-probe.${this.hosts.runId}`], num_replicas: replicas });
      await jsm.streams.delete(name);
      return undefined;
    } catch (error) {
      return String(error);
    } finally {
      await nc.close();
    }
  }

  /**
   * Resolves once every stream (key-value buckets included) has a leader and all its replicas
   * current: a restarted or healed node has caught up, so the next fault leaves a quorum.
   */
  async waitUntilCurrent(options: ConnectionOptions, timeoutMs = 60_000): Promise<void> {
    const started = Date.now();
    const nc = await connect({ ...options, servers: this.nodes.map((index) => this.nodeUrl(index)) });
    try {
      const jsm = await nc.jetstreamManager({ checkAPI: false });
      for (;;) {
        // The meta leader may be mid-election: an API timeout is a "not yet".
        const lagging = await laggingStreams(jsm).catch((error: unknown) => [String(error)]);
        if (lagging.length === 0) return;
        if (Date.now() - started > timeoutMs)
          throw new Error(`replicas not current after ${timeoutMs} ms: ${lagging.join('; ')}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await nc.close();
    }
  }

  /**
   * Resolves once every durable consumer (the services' event feeds) has nothing left to deliver
   * and nothing unacknowledged; answers how long that took. One commit in flight per feed: after
   * faults, a backlog takes a while to drain.
   */
  async waitUntilFeedsCaughtUp(options: ConnectionOptions, timeoutMs = 120_000): Promise<number> {
    return waitUntilFeedsCaughtUp({ ...options, servers: this.nodes.map((index) => this.nodeUrl(index)) }, timeoutMs);
  }

  /** Resolves once no event feed is stuck (`waitUntilFeedsMove`), under a load that goes on. */
  async waitUntilFeedsMove(options: ConnectionOptions, timeoutMs = 120_000): Promise<{ movingMs: number; backlog: number }> {
    return waitUntilFeedsMove({ ...options, servers: this.nodes.map((index) => this.nodeUrl(index)) }, timeoutMs);
  }

  /**
   * The node that leads `stream` (STREAM.INFO's cluster.leader), asked through any node that
   * answers; retried while the cluster elects (no leader yet, or the API answering 503).
   */
  async leaderOf(stream: string, options: ConnectionOptions, timeoutMs = 30_000): Promise<number> {
    const started = Date.now();
    const nc = await connect({ ...options, servers: this.nodes.map((index) => this.nodeUrl(index)) });
    try {
      const jsm = await nc.jetstreamManager({ checkAPI: false });
      for (;;) {
        const info = await jsm.streams.info(stream).catch(() => undefined);
        const leader = this.nodes.find((index) => this.serverName(index) === info?.cluster?.leader);
        if (leader !== undefined) return leader;
        if (Date.now() - started > timeoutMs) throw new Error(`stream ${stream} without a leader after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await nc.close();
    }
  }

  /** The permission violations any node logged for connections named `<name>...`. */
  violations(namePrefix: string): string[] {
    return this.nodes.flatMap((index) => {
      if (!existsSync(this.logFile(index))) return [];
      return readFileSync(this.logFile(index), 'utf8')
        .split('\n')
        .filter((line) => / - (Publish|Subscription) Violation - /.test(line) && line.includes(`:${namePrefix}`));
    });
  }

  /** Stops every node, removes the namespaces, the bridge and the stores. */
  async stop(): Promise<void> {
    await this.kill();
    this.hosts.remove();
    rmSync(this.storeDir, { recursive: true, force: true });
    live.delete(this);
  }

  /** At the process's exit: no node outlives the test run (its namespace goes with `NetworkNamespaces`). */
  killNow(): void {
    for (const index of this.nodes) if (this.running(index)) this.children[index]?.kill('SIGKILL');
  }
}

/** The streams without a leader or with a replica not current (offline or behind). */
async function laggingStreams(jsm: JetStreamManager): Promise<string[]> {
  const lagging: string[] = [];
  for await (const stream of jsm.streams.list()) {
    const replicas = stream.cluster?.replicas ?? [];
    if (!stream.cluster?.leader || replicas.some((replica) => !replica.current || replica.offline))
      lagging.push(`${stream.config.name} ${JSON.stringify(stream.cluster)}`);
  }
  return lagging;
}

/** The durable consumers with messages pending or unacknowledged. */
const live = new Set<NatsCluster>();
process.once('exit', () => {
  for (const cluster of live) cluster.killNow();
});

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
