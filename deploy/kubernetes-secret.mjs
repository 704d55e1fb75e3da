/**
 * Writes a Secret of the pod's own namespace through the Kubernetes API, as the pod's service
 * account (in-cluster configuration: KUBERNETES_SERVICE_HOST/PORT and the mounted token, CA and
 * namespace). Used by deploy/first-api-key.mjs so that the first API key's secret goes to a Secret,
 * never to a log. SESAME_KUBERNETES_SERVICE_ACCOUNT_DIR points elsewhere than the standard mount.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';

const defaultServiceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

export class KubernetesError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The in-cluster API client, or an error saying what is missing (not running in a pod, no token). */
export function inCluster(env = process.env) {
  const dir = env.SESAME_KUBERNETES_SERVICE_ACCOUNT_DIR || defaultServiceAccountDir;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT || '443';
  if (!host) throw new KubernetesError(0, 'KUBERNETES_SERVICE_HOST is not set: --kubernetes-secret works inside a pod only');
  let token;
  let ca;
  let namespace;
  try {
    token = readFileSync(join(dir, 'token'), 'utf8').trim();
    ca = readFileSync(join(dir, 'ca.crt'));
    namespace = readFileSync(join(dir, 'namespace'), 'utf8').trim();
  } catch (error) {
    throw new KubernetesError(0, `no service account token in ${dir} (automountServiceAccountToken?): ${error.message}`);
  }
  return { host, port, token, ca, namespace };
}

function call(cluster, method, path, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      {
        host: cluster.host,
        port: cluster.port,
        method,
        path,
        ca: cluster.ca,
        headers: {
          authorization: `Bearer ${cluster.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
        timeout: 10_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('the Kubernetes API did not answer within 10 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Creates the Secret `name` with `data` (strings). `dryRun`: only checks that it could (the right
 * to create Secrets, and the name free), writing nothing. A refusal becomes a KubernetesError
 * naming the cause; the API's answer never carries the secret values back, so it may be shown.
 */
export async function createSecret(cluster, name, data, { dryRun = false, labels = {} } = {}) {
  const path = `/api/v1/namespaces/${encodeURIComponent(cluster.namespace)}/secrets${dryRun ? '?dryRun=All' : ''}`;
  const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name, labels }, type: 'Opaque', stringData: data };
  const { status, text } = await call(cluster, 'POST', path, body);
  if (status === 201 || status === 200) return;
  let reason = text;
  try {
    reason = JSON.parse(text).message ?? text;
  } catch {
    /* not a Status object */
  }
  if (status === 409)
    throw new KubernetesError(status, `Secret ${name} already exists in ${cluster.namespace}: delete it, or name another one`);
  if (status === 401 || status === 403)
    throw new KubernetesError(status, `not allowed to create Secrets in ${cluster.namespace} (the Job's Role): ${reason}`);
  throw new KubernetesError(status, `the Kubernetes API answered ${status}: ${reason}`);
}
