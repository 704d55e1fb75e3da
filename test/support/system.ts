import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { connect } from 'nats';
import type { ConnectionOptions } from 'nats';
import { KeyRing, natsInboxPrefix } from '@sesame/platform';
import { randomNatsPassword, randomNatsPasswords, sesameNatsUsers } from '@sesame/platform/messaging';
import type { NatsRole } from '@sesame/platform';
import type { NatsUser } from '@sesame/platform/messaging';
// Relative, not '@sesame/platform/testing': the e2e project's global setup (shared-system.global-setup.ts)
// loads this file outside jest's module mapping.
import { testNatsUrl, testPrefix } from '../../services/platform/src/testing/test-prefix';
import { freePort } from './free-port';
import { PrivateNats } from './private-nats';
import type { PrivateNatsDescription } from './private-nats';

export const repoRoot = resolve(__dirname, '../..');

export const processEntries = {
  identity: 'services/identity/dist/main.js',
  'auth-methods': 'services/auth-methods/dist/main.js',
  'directory-sync': 'services/directory-sync/dist/main.js',
  webhooks: 'services/webhooks/dist/main.js',
  gateway: 'gateway/dist/main.js',
} as const;
export type ProcessName = keyof typeof processEntries;
const processNames = Object.keys(processEntries) as ProcessName[];

export interface ApiKey {
  clientId: string;
  clientSecret: string;
  environment: 'sandbox' | 'production';
  scopes: string[];
}

export interface StartSystemOptions {
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Extra environment per process. */
  processEnv?: Partial<Record<ProcessName, Record<string, string>>>;
  /** Starts the NATS the system runs on, with these users (default: a `PrivateNats`; e.g. a `NatsCluster`). */
  nats?: (logDir: string, users: NatsUser[]) => Promise<SystemNats>;
}

/** The NATS a system runs on: one server or a cluster (`url` then lists every node). */
export interface SystemNats {
  readonly url: string;
  /** The server's process id while it runs (undefined for a cluster). */
  readonly pid: number | undefined;
  kill(signal?: NodeJS.Signals): Promise<void>;
  run(): Promise<void>;
  violations(namePrefix: string): string[];
  stop(): Promise<void>;
}

/** What a test file needs to use a system that another module of the run started (`sharedSystem()`). */
export interface SystemDescription {
  prefix: string;
  env: Record<string, string>;
  gatewayPort: number;
  logDir: string;
  nats: PrivateNatsDescription;
  natsPasswords: Record<NatsRole, string>;
  httpPorts: [ProcessName, number][];
  gatewayManagementPort: number;
  apiKey: ApiKey;
}

/** The test harness's own NATS user: every permission, to look inside the stores or play a service. */
const harnessUser = 'sesame-test';

/**
 * The real system for system tests: every service and the gateway as separate Node processes
 * (the built `dist/`), on a private nats-server of its own (`PrivateNats`) configured as `npm start`
 * configures it: each process connects as its own user with its own subject permissions. Logs
 * (the NATS server's too) are in `test-results/e2e/<prefix>/`. Nothing is faked. `env` carries the
 * harness's NATS user (every permission), which the processes replace with their own.
 */
export class System {
  readonly baseUrl: string;
  private readonly children = new Map<ProcessName, ChildProcess>();
  /** Each process's HTTP port: a service's probes and /metrics; the gateway's public API. */
  readonly httpPorts = new Map<ProcessName, number>();
  /** The gateway's management port (probes and /metrics). */
  gatewayManagementPort = 0;
  private readonly tokens = new Map<string, { token: string; expires: number }>();
  apiKey!: ApiKey;
  /** A system another module started (`attach`): its processes are not this object's to kill or stop. */
  private attached = false;

  private constructor(
    readonly prefix: string,
    readonly env: Record<string, string>,
    private readonly options: StartSystemOptions,
    readonly gatewayPort: number,
    readonly logDir: string,
    /** The system's NATS server (a test may kill and restart it). */
    readonly nats: SystemNats,
    private readonly natsPasswords: Record<NatsRole, string>,
  ) {
    this.baseUrl = `http://127.0.0.1:${gatewayPort}`;
  }

  static async start(options: StartSystemOptions = {}): Promise<System> {
    const prefix = testPrefix('e');
    const gatewayPort = await freePort();
    const logDir = join(repoRoot, 'test-results', 'e2e', prefix);
    mkdirSync(logDir, { recursive: true });
    const natsPasswords = randomNatsPasswords();
    const harnessPassword = randomNatsPassword();
    const nats = await (options.nats ?? ((dir, users) => PrivateNats.start(dir, users)))(logDir, [
      ...sesameNatsUsers(prefix, natsPasswords),
      { user: harnessUser, password: harnessPassword },
    ]);
    const env = {
      PATH: process.env.PATH ?? '',
      SESAME_NATS_URL: nats.url,
      SESAME_NATS_USER: harnessUser,
      SESAME_NATS_PASSWORD: harnessPassword,
      SESAME_PREFIX: prefix,
      SESAME_ENCRYPTION_KEYS: KeyRing.generateKeySpec('test'),
      SESAME_PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      SESAME_LOG_LEVEL: 'info',
      SESAME_HTTP_HOST: '127.0.0.1',
      SESAME_SHUTDOWN_GRACE_MS: '3000',
      // Any other gateway a test starts picks a free management port.
      SESAME_MANAGEMENT_PORT: '0',
      ...storesFromEnvironment(),
      ...options.env,
    };
    const system = new System(prefix, env, options, gatewayPort, logDir, nats, natsPasswords);
    try {
      await system.startProcesses(processNames);
      await system.waitUntilReady();
      system.apiKey = system.createApiKey('sandbox');
    } catch (error) {
      // The start's own failure is the one to report, not what stopping its remains found.
      await system.stop().catch((stopError: unknown) => console.error(stopError));
      throw error;
    }
    return system;
  }

  /** Everything `attach` needs, as JSON. */
  describe(): SystemDescription {
    return {
      prefix: this.prefix,
      env: this.env,
      gatewayPort: this.gatewayPort,
      logDir: this.logDir,
      nats: this.privateNats().describe(),
      natsPasswords: this.natsPasswords,
      httpPorts: [...this.httpPorts],
      gatewayManagementPort: this.gatewayManagementPort,
      apiKey: this.apiKey,
    };
  }

  /** A running system that `describe` described, to send requests to; killing or stopping it fails. */
  static attach(description: SystemDescription): System {
    const { prefix, env, gatewayPort, logDir, nats, natsPasswords } = description;
    const system = new System(prefix, env, {}, gatewayPort, logDir, PrivateNats.attach(nats), natsPasswords);
    for (const [name, port] of description.httpPorts) system.httpPorts.set(name, port);
    system.gatewayManagementPort = description.gatewayManagementPort;
    system.apiKey = description.apiKey;
    system.attached = true;
    return system;
  }

  /** The system's own nats-server: only a system on one can be described and shared. */
  private privateNats(): PrivateNats {
    if (!(this.nats instanceof PrivateNats)) throw new Error('Only a system on a PrivateNats can be shared');
    return this.nats;
  }

  private refuseIfAttached(what: string): void {
    if (this.attached) throw new Error(`The shared system is not to be ${what}: start a System of your own`);
  }

  private async startProcesses(names: ProcessName[]): Promise<void> {
    const taken = new Set([this.gatewayPort, ...this.httpPorts.values(), this.gatewayManagementPort]);
    // A port just probed free can be handed out twice before anything listens on it.
    const untaken = async () => {
      let port = await freePort();
      while (taken.has(port)) port = await freePort();
      taken.add(port);
      return port;
    };
    if (names.includes('gateway') && this.gatewayManagementPort === 0) this.gatewayManagementPort = await untaken();
    for (const name of names) {
      const port = name === 'gateway' ? this.gatewayPort : (this.httpPorts.get(name) ?? (await untaken()));
      this.httpPorts.set(name, Number(this.options.processEnv?.[name]?.SESAME_HTTP_PORT ?? port));
      const management = name === 'gateway' ? { SESAME_MANAGEMENT_PORT: String(this.gatewayManagementPort) } : {};
      const child = spawn(process.execPath, [join(repoRoot, processEntries[name])], {
        cwd: repoRoot,
        env: { ...this.envOf(name), SESAME_HTTP_PORT: String(port), ...management, ...this.options.processEnv?.[name] },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const log = createWriteStream(join(this.logDir, `${name}.log`), { flags: 'a' });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      this.children.set(name, child);
    }
  }

  /** Where `name` serves /metrics: a service's HTTP port, the gateway's management port. */
  metricsUrl(name: ProcessName): string {
    const port = name === 'gateway' ? this.gatewayManagementPort : this.httpPorts.get(name);
    return `http://127.0.0.1:${port}/metrics`;
  }

  /** The environment of one process: the system's, with that process's own NATS user. */
  envOf(role: NatsRole): Record<string, string> {
    return { ...this.env, SESAME_NATS_USER: role, SESAME_NATS_PASSWORD: this.natsPasswords[role] };
  }

  /** The process id of each running process and of the nats-server (benchmarks read their CPU time). */
  processIds(): Record<string, number> {
    const ids: Record<string, number> = {};
    for (const [name, child] of this.children) if (child.exitCode === null && child.pid !== undefined) ids[name] = child.pid;
    if (this.nats.pid !== undefined) ids['nats-server'] = this.nats.pid;
    return ids;
  }

  /**
   * NATS connection options with the harness's user (every permission), for tests that look inside.
   * Its answers arrive on the gateway's inbox prefix: services answer their callers' inboxes only
   * (no `allow_responses`), and the gateway calls every service.
   */
  natsOptions(name = 'sesame-test'): ConnectionOptions {
    return {
      servers: this.nats.url.split(','),
      user: this.env.SESAME_NATS_USER,
      pass: this.env.SESAME_NATS_PASSWORD,
      name,
      inboxPrefix: natsInboxPrefix(this.prefix, 'gateway'),
    };
  }

  async waitUntilReady(timeoutMs = 60_000): Promise<void> {
    const started = Date.now();
    for (;;) {
      const ready = await fetch(`${this.baseUrl}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) return;
      for (const [name, child] of this.children)
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${this.logDir}/${name}.log`);
      if (Date.now() - started > timeoutMs) throw new Error(`System not ready after ${timeoutMs} ms; see ${this.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Creates an API key with the command-line tool, as an operator would. */
  createApiKey(environment: 'sandbox' | 'production', scopes?: string[]): ApiKey {
    const args = [
      join(repoRoot, 'services/auth-methods/dist/cli/sesame.js'),
      'api-keys',
      'create',
      '--environment',
      environment,
      '--json',
    ];
    if (scopes) args.push('--scopes', scopes.join(','));
    const result = spawnSync(process.execPath, args, { env: this.envOf('cli'), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`sesame api-keys create failed: ${result.stderr}`);
    const key = JSON.parse(result.stdout) as { client_id: string; client_secret: string; scopes: string[] };
    return { clientId: key.client_id, clientSecret: key.client_secret, environment, scopes: key.scopes };
  }

  /** An access token for `key` (the system's sandbox key by default), cached while valid. */
  async token(key: ApiKey = this.apiKey): Promise<string> {
    const cached = this.tokens.get(key.clientId);
    if (cached && cached.expires > Date.now()) return cached.token;
    const response = await fetch(`${this.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }),
    });
    if (!response.ok) throw new Error(`token grant failed: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    this.tokens.set(key.clientId, { token: body.access_token, expires: Date.now() + (body.expires_in - 60) * 1_000 });
    return body.access_token;
  }

  /** A JSON request with the API key's bearer token (pass `token: null` for none). */
  async request(
    method: string,
    path: string,
    options: { body?: unknown; form?: string; token?: string | null; key?: ApiKey; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const token = options.token === null ? undefined : (options.token ?? (await this.token(options.key)));
    const headers: Record<string, string> = { ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = options.form;
    } else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /** Kills processes (`SIGKILL` by default) and waits for them to exit. */
  async kill(names: ProcessName[] = processNames, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    this.refuseIfAttached('killed');
    await Promise.all(
      names.map(async (name) => {
        const child = this.children.get(name);
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((done) => child.once('exit', done));
        child.kill(signal);
        await exited;
      }),
    );
  }

  /** Stops processes gracefully (or kills them) and starts them again with the same data. */
  async restart(names: ProcessName[] = processNames, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.kill(names, signal);
    await this.startProcesses(names);
    await this.waitUntilReady();
  }

  /**
   * Stops every process and the NATS server; fails when the server refused a process of the system
   * a subject (a permission missing from `natsPermissions`: the log lines say which).
   */
  async stop(): Promise<void> {
    this.refuseIfAttached('stopped');
    const running = processNames.filter((name) => {
      const child = this.children.get(name);
      return child && child.exitCode === null && child.signalCode === null;
    });
    await this.kill(running, 'SIGTERM');
    await this.nats.stop();
    const violations = this.nats.violations(`${this.prefix}.`);
    if (violations.length > 0)
      throw new Error(`NATS refused subjects to the system's processes (see natsPermissions):\n${violations.join('\n')}`);
    // A graceful stop ends with code 0; 1 means the shutdown deadline had to kill a process that kept
    // something open (a connection, a timer, a worker).
    const unclean = running.filter((name) => this.children.get(name)!.exitCode !== 0);
    if (unclean.length > 0)
      throw new Error(
        `Not stopped cleanly on SIGTERM: ${unclean.map((name) => `${name} (exit ${this.children.get(name)!.exitCode})`).join(', ')}; see ${this.logDir}`,
      );
  }
}

/**
 * The production stores, when the run is given them (CI runs the system tests against the compose
 * stack's EventStoreDB and MongoDB): SESAME_EVENT_STORE, SESAME_READ_MODEL and their URLs.
 */
function storesFromEnvironment(): Record<string, string> {
  const names = [
    'SESAME_EVENT_STORE',
    'SESAME_EVENTSTOREDB_URL',
    'SESAME_READ_MODEL',
    'SESAME_MONGODB_URL',
    'SESAME_MONGODB_DATABASE',
  ];
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name] as string]] : [])));
}

/** Removes the JetStream streams (and key-value buckets) a test run created, so that runs do not fill the server. */
export async function deleteStreams(prefix: string, url = testNatsUrl()): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await nc.jetstreamManager();
    for await (const stream of jsm.streams.list())
      if (stream.config.name.startsWith(`${prefix.toUpperCase()}_`) || stream.config.name.startsWith(`KV_${prefix}_`))
        await jsm.streams.delete(stream.config.name);
  } finally {
    await nc.close();
  }
}
