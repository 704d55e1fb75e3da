#!/usr/bin/env node
/* global AbortSignal */
// Container health check (Dockerfile HEALTHCHECK, compose, `helm test`): exits 0 when the process
// answers GET <SESAME_HEALTH_PATH, default /healthz> on <SESAME_HEALTH_HOST, default 127.0.0.1>:
// <SESAME_HTTP_PORT> with a 2xx, else 1.
const host = process.env.SESAME_HEALTH_HOST || '127.0.0.1';
const port = process.env.SESAME_HTTP_PORT || '8080';
const path = process.env.SESAME_HEALTH_PATH || '/healthz';
const timeoutMs = Number(process.env.SESAME_HEALTH_TIMEOUT_MS || 2000);

try {
  const response = await fetch(`http://${host}:${port}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) console.error(`GET ${path} answered ${response.status}`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  console.error(`GET ${path} on ${host}:${port} failed: ${error.message}`);
  process.exit(1);
}
