#!/usr/bin/env node
// CI smoke test of the compose stack (needs Docker): after `docker compose up -d --wait`, reads the
// first API key from the one-shot service's log, gets a token, creates and reads an organization
// through the gateway, and checks the docs site and the metrics. Exits non-zero on the first failure.
import { execFileSync } from 'node:child_process';

const compose = ['compose', '-f', 'deploy/compose.yaml', '-f', 'deploy/compose.ci.yaml'];
const gateway = process.env.SESAME_PUBLIC_URL ?? 'http://localhost:8080';
const docs = process.env.SESAME_DOCS_URL ?? 'http://localhost:8000';

function check(condition, message) {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exit(1);
  }
  console.log(`ok: ${message}`);
}

const logs = execFileSync('docker', [...compose, 'logs', '--no-log-prefix', 'first-api-key'], { encoding: 'utf8' });
const clientId = /client_id:\s+(\S+)/.exec(logs)?.[1];
const clientSecret = /client_secret:\s+(\S+)/.exec(logs)?.[1];
check(clientId && clientSecret, 'the first-api-key service printed a key');

const again = execFileSync('docker', [...compose, 'run', '--rm', 'first-api-key'], { encoding: 'utf8' });
check(again.includes('An API key already exists'), 'a second run of first-api-key creates no other key');

const ready = await fetch(`${gateway}/readyz`);
check(ready.status === 200, `gateway /readyz answers 200 (got ${ready.status})`);

const tokenResponse = await fetch(`${gateway}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
});
const { access_token: token } = await tokenResponse.json();
check(tokenResponse.status === 200 && token, 'the key gets an access token');

const name = `Smoke ${Date.now()}`;
const created = await fetch(`${gateway}/api/v2/organizations`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name }),
});
const organization = await created.json();
check(created.status === 201 || created.status === 200, `an organization is created (status ${created.status})`);
const read = await fetch(`${gateway}/api/v2/organizations/${organization.domain}`, {
  headers: { authorization: `Bearer ${token}` },
});
check(read.status === 200 && (await read.json()).name === name, 'the organization reads back (EventStoreDB + MongoDB)');

const management = `http://localhost:${process.env.SESAME_GATEWAY_MANAGEMENT_PORT ?? 9080}`;
const metrics = await (await fetch(`${management}/metrics`)).text();
check(metrics.includes('sesame_http_requests_total'), 'the gateway serves Prometheus metrics on its management port');
const hidden = await fetch(`${gateway}/metrics`);
check(hidden.status === 404, `the public port has no /metrics (got ${hidden.status})`);

const site = await fetch(`${docs}/`);
check(site.status === 200, `the docs site answers 200 (got ${site.status})`);
