import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const entries = {
  identity: 'services/identity/dist/main.js',
  'auth-methods': 'services/auth-methods/dist/main.js',
  'directory-sync': 'services/directory-sync/dist/main.js',
  webhooks: 'services/webhooks/dist/main.js',
  gateway: 'gateway/dist/main.js',
};

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

export const natsUrl = () => process.env.SESAME_NATS_URL ?? 'nats://127.0.0.1:4222';
export const benchPrefix = (label) => `${label}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/**
 * Every Sesame process from `dist/`, on the local NATS under a fresh prefix, quiet logs: the
 * system the benchmarks measure through its gateway.
 */
export async function startSystem() {
  const prefix = benchPrefix('b');
  const gatewayPort = await freePort();
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const keys = spawnSync(process.execPath, [join(repoRoot, 'services/auth-methods/dist/cli/sesame.js'), 'keys', 'generate'], {
    encoding: 'utf8',
  }).stdout.trim();
  const env = {
    PATH: process.env.PATH ?? '',
    SESAME_NATS_URL: natsUrl(),
    SESAME_PREFIX: prefix,
    SESAME_ENCRYPTION_KEYS: keys,
    SESAME_PUBLIC_URL: baseUrl,
    SESAME_LOG_LEVEL: 'warn',
  };
  const children = [];
  const taken = new Set([gatewayPort]);
  for (const [name, entry] of Object.entries(entries)) {
    let port = gatewayPort;
    while (name !== 'gateway' && taken.has(port)) port = await freePort();
    taken.add(port);
    const child = spawn(process.execPath, [join(repoRoot, entry)], {
      cwd: repoRoot,
      env: { ...env, SESAME_HTTP_PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
  }
  const started = Date.now();
  while (
    !(await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() - started > 90_000) throw new Error('system not ready after 90 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const created = spawnSync(
    process.execPath,
    [join(repoRoot, 'services/auth-methods/dist/cli/sesame.js'), 'api-keys', 'create', '--environment', 'sandbox', '--json'],
    { env, encoding: 'utf8' },
  );
  const key = JSON.parse(created.stdout);
  const grant = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.client_secret }),
  });
  const { access_token: token } = await grant.json();
  const request = async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: await response.json() };
  };
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      ),
    );
    await deleteStreams(prefix);
  };
  return { prefix, baseUrl, token, request, stop };
}

export async function deleteStreams(prefix) {
  const { connect } = await import('nats');
  const nc = await connect({ servers: natsUrl() });
  try {
    const jsm = await nc.jetstreamManager();
    for await (const stream of jsm.streams.list())
      if (stream.config.name.startsWith(`${prefix.toUpperCase()}_`)) await jsm.streams.delete(stream.config.name);
  } finally {
    await nc.close();
  }
}
