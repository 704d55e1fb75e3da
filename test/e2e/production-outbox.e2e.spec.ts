import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { KeyRing } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { deleteStreams, processEntries, repoRoot } from '../support/system';

interface Run {
  code: number | null;
  output: string;
}

/**
 * Starts one process of the built system in production mode with `env` and waits until it exits,
 * or until its output contains `until` (then stops it with SIGTERM).
 */
function runProcess(name: 'identity' | 'auth-methods', env: Record<string, string>, until?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, processEntries[name])], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', SESAME_MODE: 'production', SESAME_LOG_LEVEL: 'info', SESAME_HTTP_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (until && output.includes(until)) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const mailRefusal =
  'SESAME_MAIL_TRANSPORT: is outbox in production: emails (sign-in links, reset codes, invitations) would only be kept in NATS, never sent. Set SESAME_MAIL_TRANSPORT=smtp and SESAME_SMTP_URL, or SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true to run so on purpose';
const smsRefusal =
  'SESAME_SMS_TRANSPORT: is outbox in production: text messages (one-time codes) would only be kept in NATS, never sent. Set SESAME_SMS_TRANSPORT=http and SESAME_SMS_HTTP_URL, or SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true to run so on purpose';

describe('Outboxes in production (the built processes)', () => {
  const prefix = testPrefix('po');
  // Production requires NATS credentials; the shared test server has no authorization and does not check them.
  const env = {
    SESAME_NATS_URL: testNatsUrl(),
    SESAME_NATS_USER: 'sesame-test',
    SESAME_NATS_PASSWORD: 'not-checked-by-the-shared-server',
    SESAME_PREFIX: prefix,
    SESAME_ENCRYPTION_KEYS: KeyRing.generateKeySpec('test'),
  };
  afterAll(async () => {
    await deleteStreams(prefix);
  });

  it('refuses to start identity and auth-methods on the outbox transports, naming the variable that allows it (exit code 1)', async () => {
    // Stopped if it starts after all, so that the assertion says so.
    const identity = await runProcess('identity', env, '"msg":"identity started"');
    expect(identity).toEqual({ code: 1, output: `Invalid configuration:\n  - ${mailRefusal}\n` });
    const authMethods = await runProcess('auth-methods', env, '"msg":"auth-methods started"');
    expect(authMethods).toEqual({ code: 1, output: `Invalid configuration:\n  - ${mailRefusal}\n  - ${smsRefusal}\n` });
  }, 120_000);

  it('starts them with SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true, warning that nothing is sent', async () => {
    const allowed = { ...env, SESAME_ALLOW_OUTBOX_IN_PRODUCTION: 'true' };
    for (const name of ['identity', 'auth-methods'] as const) {
      const run = await runProcess(name, allowed, `"msg":"${name} started"`);
      expect(run.output).not.toContain('Invalid configuration');
      expect(run.output).toContain('emails are only kept in the outbox, never sent');
      expect(run.output).toContain(`"msg":"${name} started"`);
    }
  }, 120_000);
});
