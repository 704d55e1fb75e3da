/**
 * The NATS server of a local run (`npm start`): its own nats-server with JetStream, a user per
 * process with that process's subject permissions, and nobody else. The passwords are generated
 * once into the data directory (`nats-credentials.json`, mode 0600) and the configuration is written
 * at each start (`nats.conf`, 0600), so that a change of prefix or of the permission table applies.
 * `nats.env` (0600) holds the CLI's connection, read by `npm run sesame`.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import natsConfig from '../services/platform/dist/messaging/nats-server-config.js';

const { natsServerConfig, randomNatsPasswords, sesameNatsUsers } = natsConfig;

/** Writes a file only its owner may read. */
function writeSecret(file, text) {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** A free TCP port of 127.0.0.1, from the operating system. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** This installation's NATS passwords, one per process, created on first use. */
export function natsPasswords(dataDir) {
  const file = join(dataDir, 'nats-credentials.json');
  if (!existsSync(file)) writeSecret(file, `${JSON.stringify(randomNatsPasswords(), null, 2)}\n`);
  const passwords = JSON.parse(readFileSync(file, 'utf8'));
  // A file from an earlier version may lack a process added since: complete it.
  const complete = { ...randomNatsPasswords(), ...passwords };
  if (Object.keys(complete).length !== Object.keys(passwords).length) writeSecret(file, `${JSON.stringify(complete, null, 2)}\n`);
  return complete;
}

/**
 * Writes the server's configuration for this start and answers how to run it and how each process
 * connects: `{ url, args, envOf(role) }`.
 */
export async function prepareLocalNats({ dataDir, prefix, port }) {
  const passwords = natsPasswords(dataDir);
  const listenPort = port ? Number(port) : await freePort();
  const url = `nats://127.0.0.1:${listenPort}`;
  const configFile = join(dataDir, 'nats.conf');
  const config = natsServerConfig({
    host: '127.0.0.1',
    port: listenPort,
    storeDir: join(dataDir, 'nats'),
    users: sesameNatsUsers(prefix, passwords),
  });
  writeSecret(configFile, config);
  const envOf = (role) => ({ SESAME_NATS_URL: url, SESAME_NATS_USER: role, SESAME_NATS_PASSWORD: passwords[role] });
  const cliEnv = Object.entries(envOf('cli')).map(([name, value]) => `${name}=${value}\n`);
  writeSecret(join(dataDir, 'nats.env'), cliEnv.join(''));
  return { url, args: ['-c', configFile, '-l', join(dataDir, 'nats.log')], envOf };
}
