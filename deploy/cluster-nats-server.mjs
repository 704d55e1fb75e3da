#!/usr/bin/env node
/**
 * The nats-server a JetStream cluster needs: 2.11 or later. Before 2.11 a new stream leader
 * answers writes before applying the entries already in its log (nats-server#6485, #6486), so the
 * message-id dedupe and the expected-sequence checks that the event stores, the job store and the
 * leases rely on fail across a leader change; the cluster reliability test saw it on Debian
 * bookworm's 2.9.10 (README, reliability on a NATS cluster).
 *
 * Prints the path of one: the system's `nats-server` when it is recent enough; else one kept in
 * `.tools/nats-server-v<version>/` (git-ignored); else Debian's newest package (from the unstable
 * suite, `apt-get download` with a sources list of its own: apt checks the archive's signature with
 * the system's keyring; nothing is installed on the system), unpacked there. Exits 1 with the
 * reason when none can be had (no apt-get, no network), for the test to skip with it.
 *
 * Usage: node deploy/cluster-nats-server.mjs
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findNatsServer } from './lib.mjs';

const minimum = [2, 11];
const suite = 'http://deb.debian.org/debian sid main';
const root = fileURLToPath(new URL('..', import.meta.url));
const tools = join(root, '.tools');

/** The version `binary --version` prints ([major, minor, patch]), or null when it does not run. */
export function versionOf(binary) {
  const printed = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  const match = /v(\d+)\.(\d+)\.(\d+)/.exec(printed.stdout ?? '');
  return match ? match.slice(1).map(Number) : null;
}

const recentEnough = (version) =>
  version !== null && (version[0] > minimum[0] || (version[0] === minimum[0] && version[1] >= minimum[1]));

/** A nats-server already unpacked under `.tools`, recent enough. */
function kept() {
  if (!existsSync(tools)) return null;
  for (const name of readdirSync(tools)
    .filter((entry) => entry.startsWith('nats-server-v'))
    .sort()
    .reverse()) {
    const binary = join(tools, name, 'nats-server');
    if (existsSync(binary) && recentEnough(versionOf(binary))) return binary;
  }
  return null;
}

/** Runs apt-get with a private state directory; answers its output or throws with its error. */
function apt(dir, args) {
  const options = [
    `-o=Dir::Etc::SourceList=${join(dir, 'sources.list')}`,
    '-o=Dir::Etc::SourceParts=/dev/null',
    `-o=Dir::State::Lists=${join(dir, 'lists')}`,
    `-o=Dir::Cache=${join(dir, 'cache')}`,
    '-o=APT::Sandbox::User=root',
    '-q',
  ];
  const result = spawnSync('apt-get', [...options, ...args], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/** Downloads Debian's newest nats-server and unpacks its binary into `.tools/nats-server-v<version>/`. */
function fetchFromDebian() {
  if (spawnSync('sh', ['-c', 'command -v apt-get && command -v dpkg-deb'], { encoding: 'utf8' }).status !== 0)
    throw new Error('apt-get and dpkg-deb are needed to fetch it (Debian or Ubuntu)');
  mkdirSync(tools, { recursive: true });
  const work = mkdtempSync(join(tools, 'download-'));
  try {
    mkdirSync(join(work, 'lists', 'partial'), { recursive: true });
    mkdirSync(join(work, 'cache', 'archives', 'partial'), { recursive: true });
    writeFileSync(join(work, 'sources.list'), `deb ${suite}\n`);
    console.error(`Fetching nats-server from Debian (${suite}) into ${tools} (once)...`);
    apt(work, ['update']);
    apt(work, ['download', 'nats-server']);
    const deb = readdirSync(work).find((name) => name.startsWith('nats-server_') && name.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download left no nats-server package');
    const unpacked = join(work, 'unpacked');
    const extract = spawnSync('dpkg-deb', ['-x', join(work, deb), unpacked], { encoding: 'utf8' });
    if (extract.status !== 0) throw new Error(`dpkg-deb -x ${deb} failed: ${extract.stderr}`);
    const binary = join(unpacked, 'usr', 'sbin', 'nats-server');
    const version = versionOf(binary);
    if (!recentEnough(version)) throw new Error(`Debian's ${deb} is ${version?.join('.') ?? 'not runnable here'}`);
    const dir = join(tools, `nats-server-v${version.join('.')}`);
    // Atomic: when a concurrent run got there first, its complete directory stays and ours is dropped.
    mkdirSync(join(work, 'kept'));
    renameSync(binary, join(work, 'kept', 'nats-server'));
    try {
      renameSync(join(work, 'kept'), dir);
    } catch (error) {
      if (!existsSync(join(dir, 'nats-server'))) throw error;
    }
    return join(dir, 'nats-server');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The path of a nats-server of at least 2.11 (fetched when needed); throws with the reason otherwise. */
export function clusterNatsServer() {
  const system = findNatsServer();
  if (system && recentEnough(versionOf(system))) return system;
  return kept() ?? fetchFromDebian();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(clusterNatsServer());
  } catch (error) {
    console.error(`No nats-server ${minimum.join('.')} or later: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
