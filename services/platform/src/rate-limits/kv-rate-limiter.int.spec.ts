import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { KvRateLimiter } from './kv-rate-limiter';

const options = { replicas: 1, maxWindowMs: 60_000, timeoutMs: 2_000 };
const budget = { limit: 5, windowMs: 60_000 };
/** 10 s into a window, so that a slow run stays in it. */
const now = () => Math.floor(Date.now() / 60_000) * 60_000 + 10_000;

describe('KvRateLimiter (real NATS key-value)', () => {
  let nc: NatsConnection;
  let prefix: string;
  let first: KvRateLimiter;
  let second: KvRateLimiter;

  beforeEach(async () => {
    nc = await connect({ servers: testNatsUrl() });
    prefix = testPrefix();
    first = await KvRateLimiter.connect({ servers: testNatsUrl() }, prefix, options);
    second = await KvRateLimiter.open(nc, prefix, options);
  });
  afterEach(async () => {
    await first.close();
    await (await nc.jetstreamManager()).streams.delete(`KV_${prefix}_rate_limits`);
    await nc.close();
  });

  it('shares one budget between two limiters (two gateway replicas): the sixth request is refused on either', async () => {
    const at = now();
    const answers = [];
    for (let request = 0; request < 5; request++)
      answers.push(await (request % 2 ? first : second).take('password_ip', '10.0.0.1', budget, at));
    expect(answers).toEqual(Array(5).fill({ allowed: true }));
    expect(await first.take('password_ip', '10.0.0.1', budget, at)).toEqual({ allowed: false, retryAfterMs: 62_000 });
    expect(await second.take('password_ip', '10.0.0.1', budget, at)).toEqual({ allowed: false, retryAfterMs: 62_000 });
  });

  it('spends exactly the budget under concurrent requests on both limiters (compare-and-set)', async () => {
    const at = now();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, request) => (request % 2 ? first : second).take('token_client', 'client', budget, at)),
    );
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(5);
  });

  it('lets a burst of concurrent requests on one key through when it stays far below the budget', async () => {
    const at = now();
    const roomy = { limit: 1_000, windowMs: 60_000 };
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, request) => (request % 2 ? first : second).take('scim_token', 'burst', roomy, at)),
    );
    expect(answers.filter((answer) => !answer.allowed)).toEqual([]);
  });

  it('keeps budgets apart by name and key, and stores no key in clear', async () => {
    const at = now();
    for (let request = 0; request < 5; request++)
      await first.take('password_challenge_email', 'ada@acme.com\nacme-corp', budget, at);
    expect(await second.take('password_challenge_email', 'ada@acme.com\nacme-corp', budget, at)).toMatchObject({
      allowed: false,
    });
    expect(await second.take('password_challenge_email', 'bob@acme.com\nacme-corp', budget, at)).toEqual({ allowed: true });
    expect(await second.take('magic_link_email', 'ada@acme.com\nacme-corp', budget, at)).toEqual({ allowed: true });
    const kv = await nc.jetstream().views.kv(`${prefix}_rate_limits`);
    const keys: string[] = [];
    for await (const key of await kv.keys()) keys.push(key);
    expect(keys).toHaveLength(3);
    expect(keys.join(' ')).not.toMatch(/acme|ada|bob/);
  });

  it('lets the previous window count until it fades, and counters expire with the bucket age limit', async () => {
    const at = now();
    for (let request = 0; request < 5; request++) await first.take('sso_ip', '10.0.0.2', budget, at - 60_000);
    // 10 s into the next window, 5 × 50/60 + 1 > 5; at 12 s 5 × 48/60 + 1 = 5 fits.
    expect(await second.take('sso_ip', '10.0.0.2', budget, at)).toEqual({ allowed: false, retryAfterMs: 2_000 });
    expect(await second.take('sso_ip', '10.0.0.2', budget, at + 2_000)).toEqual({ allowed: true });
    const status = await (await nc.jetstream().views.kv(`${prefix}_rate_limits`)).status();
    expect(status.ttl).toBe(120_000);
  });
});
