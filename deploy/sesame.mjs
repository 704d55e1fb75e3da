#!/usr/bin/env node
/**
 * `npm run sesame -- ...`: the `sesame` CLI with the local run's settings (`.env`, then the data
 * directory's key ring and the CLI's NATS credentials that `npm start` wrote), the environment
 * winning. In a container or a pod, run `node services/auth-methods/dist/cli/sesame.js` directly.
 * Runs on Node.js 24 (node-runtime.mjs).
 */
import './node-runtime.mjs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { cliEntry } from './processes.mjs';
import { readEnvFile } from './lib.mjs';

const root = resolve(import.meta.dirname, '..');
const fileEnv = readEnvFile(join(root, '.env'));
const dataDir = resolve(root, process.env.SESAME_DATA_DIR ?? fileEnv.SESAME_DATA_DIR ?? '.data');
const ownNats = !fileEnv.SESAME_NATS_URL && !process.env.SESAME_NATS_URL;
const env = {
  ...readEnvFile(join(dataDir, 'secrets.env')),
  ...fileEnv,
  ...(ownNats ? readEnvFile(join(dataDir, 'nats.env')) : {}),
  ...process.env,
};
const result = spawnSync(process.execPath, [join(root, cliEntry), ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
