/**
 * deploy/first-api-key.mjs (the compose one-shot and the chart's Job) against the real NATS event
 * store: it creates a key when none exists, and only then.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { KeyRing } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { deleteStreams, repoRoot } from '../../test/support/system';

describe('deploy/first-api-key.mjs', () => {
  const prefix = testPrefix('k');
  const env = {
    PATH: process.env.PATH ?? '',
    SESAME_NATS_URL: testNatsUrl(),
    SESAME_PREFIX: prefix,
    SESAME_ENCRYPTION_KEYS: KeyRing.generateKeySpec('test'),
    SESAME_PUBLIC_URL: 'https://auth.example.com/',
  };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(repoRoot, 'deploy/first-api-key.mjs'), ...args], { env, encoding: 'utf8' });

  afterAll(() => deleteStreams(prefix));

  it('creates a sandbox key with every scope on a fresh installation and prints its secret once', () => {
    const first = run();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /^First API key \(sandbox\)\. The secret is shown only now: keep it safe\.\n {2}client_id: +[0-9a-f-]{36}\n {2}client_secret: +\S{20,}\n/,
    );
    expect(first.stdout).toContain('curl -s -X POST https://auth.example.com/oauth/token');

    const list = spawnSync(
      process.execPath,
      [join(repoRoot, 'services/auth-methods/dist/cli/sesame.js'), 'api-keys', 'list', '--json'],
      {
        env,
        encoding: 'utf8',
      },
    );
    const keys = JSON.parse(list.stdout) as { client_id: string; environment: string; name: string; status: string }[];
    const clientId = /client_id: +(\S+)/.exec(first.stdout)![1];
    expect(keys).toEqual([
      expect.objectContaining({ client_id: clientId, environment: 'sandbox', name: 'first key', status: 'active' }),
    ]);

    const second = run();
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`An API key already exists (${clientId}); nothing to do.`);
    expect(second.stdout).not.toContain('client_secret');
  });

  it('fails with the configuration error when the environment is incomplete', () => {
    const result = spawnSync(process.execPath, [join(repoRoot, 'deploy/first-api-key.mjs')], {
      env: { ...env, SESAME_EVENT_STORE: 'eventstoredb' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('SESAME_EVENTSTOREDB_URL: is required when SESAME_EVENT_STORE=eventstoredb');
  });
});
