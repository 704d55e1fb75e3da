#!/usr/bin/env node
/**
 * `npm start`: the whole system on embedded defaults. Installs and builds what is missing,
 * starts its own NATS server (JetStream, a user per process with generated passwords; or uses
 * SESAME_NATS_URL with the credentials given), runs the four services and the gateway, creates
 * and prints a first API key on a fresh data directory, and stops everything on Ctrl-C. Data
 * lives in SESAME_DATA_DIR (`.data/` by default). Everything runs on Node.js 24, fetched by
 * node-runtime.mjs when this Node is older.
 */
import './node-runtime.mjs';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cliEntry, processEntries, services } from './processes.mjs';
import {
  aptInstall,
  findNatsServer,
  findXmllint,
  natsAddress,
  readEnvFile,
  startChild,
  tryAptInstall,
  waitForPort,
} from './lib.mjs';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
const fileEnv = readEnvFile(join(root, '.env'));
const env = { ...fileEnv, ...process.env };
const dataDir = resolve(root, env.SESAME_DATA_DIR ?? '.data');
mkdirSync(dataDir, { recursive: true, mode: 0o700 });

function run(command, args, what) {
  console.log(`\n> ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, env });
  if (result.status !== 0) {
    console.error(`${what} failed`);
    process.exit(result.status ?? 1);
  }
}

// 1. Install and build what is missing.
if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) run('npm', ['install'], 'Installing dependencies');
run('npm', ['run', '--silent', 'build'], 'Building');
// SAML messages are checked against the SAML schemas by Debian's xmllint in ~15 ms; without it,
// by a WebAssembly build about 20 times slower. Installed when it can be; Sesame runs either way.
if (!findXmllint() && !(tryAptInstall('libxml2-utils', 'Fast SAML schema validation (xmllint)') && findXmllint()))
  console.log('Going on without xmllint: SAML messages are checked by the slower WebAssembly build.');

// 2. A secret of this installation: the key that encrypts signing keys and secrets at rest.
const secretsFile = join(dataDir, 'secrets.env');
if (!env.SESAME_ENCRYPTION_KEYS) {
  if (!existsSync(secretsFile)) {
    const key = spawnSync('node', [cliEntry, 'keys', 'generate'], { encoding: 'utf8', cwd: root }).stdout.trim();
    writeFileSync(secretsFile, `SESAME_ENCRYPTION_KEYS=${key}\n`);
    chmodSync(secretsFile, 0o600);
  }
  Object.assign(env, readEnvFile(secretsFile));
}

// 3. NATS with JetStream: this installation's own server, where each process connects as its own
// user (an open NATS would let anyone who reaches it act as any service), unless SESAME_NATS_URL
// names a server of yours, with the credentials SESAME_NATS_USER/PASSWORD or SESAME_NATS_CREDS.
const children = [];
let processEnvOf = () => ({});
if (env.SESAME_NATS_URL) {
  console.log(`\nUsing the NATS server at ${env.SESAME_NATS_URL} (events are stored there), with the credentials given.`);
} else {
  let binary = findNatsServer();
  if (!binary) {
    aptInstall('nats-server', 'The local NATS server');
    binary = findNatsServer();
  }
  // Imported once built: it writes the permissions of the platform package's table.
  const { prepareLocalNats } = await import('./local-nats.mjs');
  const local = await prepareLocalNats({ dataDir, prefix: env.SESAME_PREFIX ?? 'sesame', port: env.SESAME_NATS_PORT });
  const nats = natsAddress(local.url);
  console.log(
    `\nStarting ${binary} on ${nats.host}:${nats.port} (JetStream data in ${join(dataDir, 'nats')}, a user per process)`,
  );
  children.push({ name: 'nats', child: startChild('nats', binary, local.args, { env: { PATH: env.PATH ?? '' } }, 6) });
  if (!(await waitForPort(nats.host, nats.port, 15_000))) {
    console.error(`nats-server did not start; see ${join(dataDir, 'nats.log')}`);
    process.exit(1);
  }
  env.SESAME_NATS_URL = local.url;
  processEnvOf = local.envOf;
}

// 4. Services, then the gateway.
const gatewayPort = Number(env.SESAME_GATEWAY_PORT ?? 8080);
env.SESAME_PUBLIC_URL ??= `http://localhost:${gatewayPort}`;
for (const [index, name] of [...services, 'gateway'].entries()) {
  const processEnv = {
    ...env,
    ...processEnvOf(name),
    ...(name === 'gateway' ? { SESAME_HTTP_PORT: String(gatewayPort) } : {}),
  };
  children.push({
    name,
    child: startChild(name, process.execPath, [processEntries[name]], { env: processEnv, cwd: root }, index),
  });
}

let stopping = false;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping...');
  const apps = children.filter((c) => c.name !== 'nats');
  for (const { child } of apps) child.kill('SIGTERM');
  Promise.all(apps.map(({ child }) => new Promise((done) => (child.exitCode !== null ? done() : child.once('exit', done))))).then(
    () => {
      for (const { name, child } of children) if (name === 'nats') child.kill('SIGTERM');
      setTimeout(() => process.exit(code), 300);
    },
  );
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
for (const { name, child } of children)
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`\n${name} exited (${code}); stopping everything.`);
      stopAll(1);
    }
  });

// 5. Wait until the gateway is ready, then say where everything is.
const base = `http://localhost:${gatewayPort}`;
for (let ready = false; !ready && !stopping;) {
  await new Promise((r) => setTimeout(r, 500));
  ready = await fetch(`${base}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
}

const firstKeyMarker = join(dataDir, 'first-api-key.created');
let keyText = `API keys: create one with\n  npm run sesame -- api-keys create --environment sandbox`;
if (!existsSync(firstKeyMarker)) {
  const created = spawnSync(
    'node',
    [cliEntry, 'api-keys', 'create', '--environment', 'sandbox', '--name', 'first key', '--json'],
    {
      encoding: 'utf8',
      cwd: root,
      env: { ...env, ...processEnvOf('cli') },
    },
  );
  if (created.status === 0) {
    const key = JSON.parse(created.stdout);
    writeFileSync(firstKeyMarker, `${key.client_id}\n`);
    keyText = `Your first API key (sandbox). The secret is shown only now:
  client_id:     ${key.client_id}
  client_secret: ${key.client_secret}
Get a token:
  curl -s -X POST ${base}/oauth/token -d grant_type=client_credentials -d client_id=${key.client_id} -d client_secret=${key.client_secret}`;
  } else console.error(created.stderr);
} else
  keyText = `First API key: ${readFileSync(firstKeyMarker, 'utf8').trim()} (its secret was shown at first start).\n${keyText}`;

console.log(`
\x1b[1mSesame is running.\x1b[0m
  API gateway:   ${base}   (OpenAPI document at ${base}/openapi.json)
  NATS:          ${env.SESAME_NATS_URL}   (prefix ${env.SESAME_PREFIX ?? 'sesame'})
  Data:          ${dataDir}

${keyText}

Press Ctrl-C to stop.
`);
