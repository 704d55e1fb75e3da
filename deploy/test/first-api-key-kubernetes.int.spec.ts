/**
 * deploy/first-api-key.mjs --kubernetes-secret (the Helm chart's Job) against the real NATS event
 * store and an HTTPS server answering as the Kubernetes API does (no cluster runs here): the key's
 * secret goes to the Secret, never to the log; a Secret it may not write means no key at all.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { KeyRing } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { deleteStreams, repoRoot } from '../../test/support/system';
import { KubernetesApi } from './support/kubernetes-api';

const secretName = 'sesame-first-api-key';
const script = join(repoRoot, 'deploy/first-api-key.mjs');
const cli = join(repoRoot, 'services/auth-methods/dist/cli/sesame.js');

describe('deploy/first-api-key.mjs --kubernetes-secret', () => {
  let api: KubernetesApi;
  const prefixes: string[] = [];

  beforeAll(async () => {
    api = await KubernetesApi.start('auth');
  });
  beforeEach(() => {
    api.secrets.clear();
    api.seen.length = 0;
    api.forbid = false;
    api.failWrites = 0;
  });
  afterAll(async () => {
    await api?.stop();
    for (const prefix of prefixes) await deleteStreams(prefix);
  });

  /** A fresh installation: its own event-store prefix. */
  const installation = () => {
    const prefix = testPrefix('k');
    prefixes.push(prefix);
    return {
      PATH: process.env.PATH ?? '',
      SESAME_NATS_URL: testNatsUrl(),
      SESAME_PREFIX: prefix,
      SESAME_ENCRYPTION_KEYS: KeyRing.generateKeySpec('test'),
    };
  };
  // Not spawnSync: the Kubernetes API answers from this process.
  const run = (env: Record<string, string>, ...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [script, '--kubernetes-secret', secretName, ...args], { env }, (error, stdout, stderr) =>
        resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
  const keys = (env: Record<string, string>) =>
    JSON.parse(spawnSync(process.execPath, [cli, 'api-keys', 'list', '--json'], { env, encoding: 'utf8' }).stdout) as {
      client_id: string;
      status: string;
    }[];

  it('writes the key to the Secret after checking it may, and logs where it is, never the secret', async () => {
    const env = { ...installation(), ...api.env };
    const first = await run(env);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    const stored = api.secrets.get(secretName);
    expect(stored).toMatchObject({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: { name: secretName, labels: { 'app.kubernetes.io/managed-by': 'sesame-first-api-key' } },
      stringData: {
        client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        client_secret: expect.stringMatching(/^\S{20,}$/),
        environment: 'sandbox',
        scopes: expect.stringContaining('users:read'),
      },
    });
    const { client_id, client_secret } = stored.stringData;
    expect(first.stdout).toBe(
      `First API key (sandbox) created: client_id ${client_id}.\n` +
        `Its secret is in Secret ${secretName} of namespace auth (keys client_id, client_secret), not in this log:\n` +
        `  kubectl -n auth get secret ${secretName} -o jsonpath='{.data.client_secret}' | base64 -d\n`,
    );
    expect(first.stdout).not.toContain(client_secret);
    // A dry run first (may it, is the name free?), then the write; as the pod's service account.
    expect(api.seen.map((request) => [request.url, request.authorization?.startsWith('Bearer token-')])).toEqual([
      ['/api/v1/namespaces/auth/secrets?dryRun=All', true],
      ['/api/v1/namespaces/auth/secrets', true],
    ]);
    expect(keys(env)).toEqual([expect.objectContaining({ client_id, status: 'active' })]);

    const second = await run(env);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`An API key already exists (${client_id}); nothing to do.`);
    expect(api.seen).toHaveLength(2);
  });

  it('creates no key when it may not create Secrets (the Role is missing)', async () => {
    const env = { ...installation(), ...api.env };
    api.forbid = true;
    const result = await run(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `Cannot store the first API key in Secret ${secretName}: not allowed to create Secrets in auth (the Job's Role): ` +
        `secrets is forbidden: User "system:serviceaccount:auth:x" cannot create resource "secrets" in API group "" in the namespace "auth". No key was created.\n`,
    );
    expect(keys(env)).toEqual([]);
  });

  it('creates no key when the Secret already exists, and none outside a pod', async () => {
    const env = { ...installation(), ...api.env };
    api.secrets.set(secretName, { metadata: { name: secretName } });
    const taken = await run(env);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toBe(
      `Cannot store the first API key in Secret ${secretName}: Secret ${secretName} already exists in auth: delete it, or name another one. No key was created.\n`,
    );
    const outside = await run(installation());
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain('KUBERNETES_SERVICE_HOST is not set: --kubernetes-secret works inside a pod only');
    expect(keys(env)).toEqual([]);
  });

  it('takes the key back when the Secret cannot be written after all, so the next run starts clean', async () => {
    const env = { ...installation(), ...api.env };
    api.failWrites = 3;
    const failed = await run(env);
    expect(failed.status).toBe(1);
    const [revoked] = keys(env);
    expect(revoked).toMatchObject({ status: 'revoked' });
    expect(failed.stderr).toBe(
      `Could not store the first API key in Secret ${secretName}: the Kubernetes API answered 500: etcdserver: request timed out. ` +
        `Key ${revoked!.client_id} was revoked; run again.\n`,
    );
    expect(api.secrets.has(secretName)).toBe(false);

    const retried = await run(env);
    expect(retried.status).toBe(0);
    const { client_id } = api.secrets.get(secretName).stringData;
    expect(client_id).not.toBe(revoked!.client_id);
    expect(
      keys(env)
        .filter((key) => key.status === 'active')
        .map((key) => key.client_id),
    ).toEqual([client_id]);
  });
});
