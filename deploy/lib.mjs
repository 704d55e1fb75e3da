import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** Resolves when something accepts TCP connections on host:port, or after `timeoutMs` with false. */
export async function waitForPort(host, port, timeoutMs = 0) {
  const started = Date.now();
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = net.connect({ host, port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
      socket.setTimeout(1_000, () => (socket.destroy(), resolve(false)));
    });
    if (open || Date.now() - started >= timeoutMs) return open;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `nats://host:port` → { host, port } */
export function natsAddress(url) {
  const parsed = new URL(url.replace(/^nats:/, 'http:'));
  return { host: parsed.hostname, port: Number(parsed.port || 4222) };
}

export function findNatsServer() {
  for (const candidate of ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'])
    if (existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

/** Installs a Debian package when running as root; otherwise explains how and stops. */
export function aptInstall(pkg, why) {
  if (!tryAptInstall(pkg, why)) process.exit(1);
}

/**
 * Installs a Debian package when running as root with apt-get; answers whether it is installed.
 * Otherwise says why and how to install it (the caller decides whether it can go on without).
 */
export function tryAptInstall(pkg, why) {
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (process.getuid?.() !== 0 || !apt) {
    console.error(
      `${why} needs the Debian package ${pkg}. Install it with:\n  sudo apt-get update && sudo apt-get install -y ${pkg}`,
    );
    return false;
  }
  console.log(`Installing ${pkg} (${why})...`);
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', pkg]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed`);
      return false;
    }
  }
  return true;
}

/** Debian's xmllint, where auth-methods looks for it (services/auth-methods saml/schema-validator.ts). */
export const findXmllint = () => ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((path) => existsSync(path)) ?? null;

/** Reads KEY=value lines (comments and blanks ignored). */
export function readEnvFile(path) {
  if (!existsSync(path)) return {};
  const entries = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && !line.trim().startsWith('#')) entries[match[1]] = match[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return entries;
}

const colors = [36, 35, 33, 32, 34, 31, 90];
const hiddenFields = new Set(['time', 'service', 'pid', 'hostname', 'correlationId']);
const levels = { trace: 90, debug: 90, info: 32, warn: 33, error: 31, fatal: 31 };

/** Runs a child process with its output prefixed by its name (JSON log lines made readable). */
export function startChild(name, command, args, options, index) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const tag = `\x1b[${colors[index % colors.length]}m${name.padEnd(14)}\x1b[0m`;
  const print = (chunk) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) process.stdout.write(`${tag} ${readable(line)}\n`);
  };
  child.stdout.on('data', print);
  child.stderr.on('data', print);
  return child;
}

function readable(line) {
  try {
    const { level, msg, err, ...fields } = JSON.parse(line);
    const rest = Object.fromEntries(Object.entries(fields).filter(([key]) => !hiddenFields.has(key)));
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    const error = err ? ` ${err.message ?? ''}` : '';
    return `\x1b[${levels[level] ?? 0}m${String(level).padEnd(5)}\x1b[0m ${msg}${error}${extra}`;
  } catch {
    return line;
  }
}
