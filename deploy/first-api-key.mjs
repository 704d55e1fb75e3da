#!/usr/bin/env node
/**
 * Creates the first API key of an installation, once: when no active key exists yet, it creates
 * one (sandbox, the default scopes: all but passwords:write) and prints its secret, which is shown only this time; when a key
 * exists, it says so and changes nothing. Used by the compose file's `first-api-key` service and
 * the Helm chart's optional Job. Reads the same SESAME_* variables as the services.
 *
 *   node deploy/first-api-key.mjs [--environment sandbox|production] [--name NAME]
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'services/auth-methods/dist/cli/sesame.js');
const { values } = parseArgs({
  options: { environment: { type: 'string', default: 'sandbox' }, name: { type: 'string', default: 'first key' } },
});

function sesame(args) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: process.env });
  if (result.status !== 0) {
    process.stderr.write(result.stderr || result.stdout);
    process.exit(result.status ?? 1);
  }
  return JSON.parse(result.stdout);
}

const active = sesame(['api-keys', 'list', '--json']).filter((key) => key?.status === 'active');
if (active.length > 0) {
  console.log(`An API key already exists (${active.map((key) => key.client_id).join(', ')}); nothing to do.`);
  console.log('Create more with: node services/auth-methods/dist/cli/sesame.js api-keys create --environment sandbox');
  process.exit(0);
}
const publicUrl = (process.env.SESAME_PUBLIC_URL || 'http://localhost:8080').replace(/\/$/, '');
const key = sesame(['api-keys', 'create', '--environment', values.environment, '--name', values.name, '--json']);
console.log(`First API key (${key.environment}). The secret is shown only now: keep it safe.
  client_id:     ${key.client_id}
  client_secret: ${key.client_secret}
  scopes:        ${key.scopes.join(' ')}
Get a token:
  curl -s -X POST ${publicUrl}/oauth/token -d grant_type=client_credentials \\
    -d client_id=${key.client_id} -d client_secret=<the secret above>`);
