#!/usr/bin/env node
/**
 * Creates the first API key of an installation, once: when no active key exists yet, it creates
 * one (sandbox, the default scopes: all but passwords:write); when a key exists, it says so and
 * changes nothing. Reads the same SESAME_* variables as the services.
 * - On a terminal (the compose file's `first-api-key` service) it prints the secret, shown only
 *   this time.
 * - With `--kubernetes-secret NAME` (the Helm chart's Job) it writes the key to that Secret of the
 *   pod's namespace and prints only where it is: a Job's log ends up in log pipelines, a secret must
 *   not. It checks first that it may create the Secret (no key is created otherwise), and takes the
 *   key back when the Secret cannot be written after all, so a new run starts clean.
 *
 *   node deploy/first-api-key.mjs [--environment sandbox|production] [--name NAME] [--kubernetes-secret NAME]
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSecret, inCluster } from './kubernetes-secret.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'services/auth-methods/dist/cli/sesame.js');
const { values } = parseArgs({
  options: {
    environment: { type: 'string', default: 'sandbox' },
    name: { type: 'string', default: 'first key' },
    'kubernetes-secret': { type: 'string' },
  },
});

function sesame(args) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: process.env });
  if (result.status !== 0) {
    process.stderr.write(result.stderr || result.stdout);
    process.exit(result.status ?? 1);
  }
  return args.includes('--json') ? JSON.parse(result.stdout) : result.stdout;
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const active = sesame(['api-keys', 'list', '--json']).filter((key) => key?.status === 'active');
if (active.length > 0) {
  console.log(`An API key already exists (${active.map((key) => key.client_id).join(', ')}); nothing to do.`);
  console.log('Create more with: node services/auth-methods/dist/cli/sesame.js api-keys create --environment sandbox');
  process.exit(0);
}
const publicUrl = (process.env.SESAME_PUBLIC_URL || 'http://localhost:8080').replace(/\/$/, '');
const createKey = () => sesame(['api-keys', 'create', '--environment', values.environment, '--name', values.name, '--json']);
const secretName = values['kubernetes-secret'];
if (secretName) await createIntoSecret(secretName);
else printOnce(createKey());

function printOnce(key) {
  console.log(`First API key (${key.environment}). The secret is shown only now: keep it safe.
  client_id:     ${key.client_id}
  client_secret: ${key.client_secret}
  scopes:        ${key.scopes.join(' ')}
Get a token:
  curl -s -X POST ${publicUrl}/oauth/token -d grant_type=client_credentials \\
    -d client_id=${key.client_id} -d client_secret=<the secret above>`);
}

async function createIntoSecret(name) {
  const labels = { 'app.kubernetes.io/managed-by': 'sesame-first-api-key' };
  let cluster;
  try {
    cluster = inCluster();
    await createSecret(cluster, name, { client_id: '', client_secret: '' }, { dryRun: true, labels });
  } catch (error) {
    fail(`Cannot store the first API key in Secret ${name}: ${error.message}. No key was created.`);
  }
  const key = createKey();
  const data = {
    client_id: key.client_id,
    client_secret: key.client_secret,
    environment: key.environment,
    scopes: key.scopes.join(' '),
  };
  let failure;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await createSecret(cluster, name, data, { labels });
      console.log(`First API key (${key.environment}) created: client_id ${key.client_id}.
Its secret is in Secret ${name} of namespace ${cluster.namespace} (keys client_id, client_secret), not in this log:
  kubectl -n ${cluster.namespace} get secret ${name} -o jsonpath='{.data.client_secret}' | base64 -d`);
      return;
    } catch (error) {
      failure = error;
      if (error.status === 409 || error.status === 401 || error.status === 403 || attempt === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
    }
  }
  // Nobody will ever read this key's secret: take it back, so the next run creates a fresh one.
  sesame(['api-keys', 'revoke', key.client_id]);
  fail(`Could not store the first API key in Secret ${name}: ${failure.message}. Key ${key.client_id} was revoked; run again.`);
}
