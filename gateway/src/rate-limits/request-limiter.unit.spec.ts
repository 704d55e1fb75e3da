import {
  configureAdminInvitationSsoConnection,
  createPasswordChallenge,
  issueToken,
  openAdminInvitation,
  scimOperations,
  validateTotpChallenge,
  z,
} from '@sesame/contracts';
import type { Operation, RpcInput } from '@sesame/contracts';
import { Metrics, createLogger, decideRate, windowIndex } from '@sesame/platform';
import type { RateDecision, RateLimit } from '@sesame/platform';
import { ApiError } from '../http/api-error';
import { budgetsOf, rateLimitEnvShape } from './rate-limit-config';
import { RequestLimiter } from './request-limiter';
import type { RateLimitStore } from './request-limiter';

/** Counters in a map, one window (the KV store is tested against real NATS). */
class MapStore implements RateLimitStore {
  readonly counts = new Map<string, number>();
  async take(name: string, key: string, budget: RateLimit): Promise<RateDecision> {
    const counter = `${name}|${key}|${windowIndex(0, budget.windowMs)}`;
    const current = this.counts.get(counter) ?? 0;
    const decision = decideRate(budget, { previous: 0, current }, 0);
    if (decision.allowed) this.counts.set(counter, current + 1);
    return decision;
  }
}

const scimCreateUser = scimOperations.find((operation) => operation.operationId === 'scimCreateUser') as Operation;
const failing: RateLimitStore = { take: () => Promise.reject(new Error('no responders: KV unavailable')) };
const budgets = (env: Record<string, string> = {}) => budgetsOf(z.object(rateLimitEnvShape).parse(env));
const input = (body: unknown = {}, params: unknown = {}): RpcInput => ({ params, query: {}, body });
const ip = { ip: '203.0.113.7' };

async function refusal(
  limiter: RequestLimiter,
  operation: Operation,
  identity: typeof ip & { scimToken?: string; onboardingSession?: string },
  given: RpcInput,
) {
  try {
    await limiter.enforce(operation, identity, given);
  } catch (error) {
    if (error instanceof ApiError) return { error: error.error, headers: error.headers };
    throw error;
  }
  return null;
}

describe('RequestLimiter', () => {
  const logger = createLogger('test', 'silent');

  it('given two password challenges a minute for an email, refuses the third with rate_limited and Retry-After', async () => {
    const limiter = new RequestLimiter(
      new MapStore(),
      budgets({ SESAME_RATE_LIMIT_PASSWORD_CHALLENGE_EMAIL: '2/60' }),
      logger,
      new Metrics('t'),
    );
    const body = { user_email: 'Ada@Acme.com', org_domain: 'acme' };
    expect(await refusal(limiter, createPasswordChallenge, ip, input(body))).toBeNull();
    expect(
      await refusal(limiter, createPasswordChallenge, { ip: '198.51.100.1' }, input({ ...body, user_email: 'ada@acme.com' })),
    ).toBeNull();
    expect(await refusal(limiter, createPasswordChallenge, ip, input(body))).toEqual({
      error: { kind: 'error', code: 'rate_limited' },
      // At the start of a window: to its end (60 s), then until the two requests weigh one (30 s).
      headers: { 'retry-after': '90' },
    });
    // Another organization is another budget.
    expect(await refusal(limiter, createPasswordChallenge, ip, input({ ...body, org_domain: 'other' }))).toBeNull();
  });

  it('answers the token endpoint in the OAuth shape (slow_down) and counts per client_id only when one is sent', async () => {
    const limiter = new RequestLimiter(
      new MapStore(),
      budgets({ SESAME_RATE_LIMIT_TOKEN_CLIENT: '1/10', SESAME_RATE_LIMIT_TOKEN_IP: '2/10' }),
      logger,
      new Metrics('t'),
    );
    expect(await refusal(limiter, issueToken, ip, input({ client_id: 'c1' }))).toBeNull();
    expect(await refusal(limiter, issueToken, ip, input({ client_id: 'c1' }))).toEqual({
      error: {
        kind: 'oauth',
        code: 'slow_down',
        description: 'Too many requests: retry after the number of seconds in the Retry-After header',
      },
      headers: { 'retry-after': '20' },
    });
    expect(await refusal(limiter, issueToken, ip, input({}))).toBeNull();
    expect(await refusal(limiter, issueToken, ip, input({}))).toMatchObject({ error: { code: 'slow_down' } });
  });

  it('answers SCIM in the SCIM shape, per bearer token, and TOTP per user', async () => {
    const limiter = new RequestLimiter(
      new MapStore(),
      budgets({ SESAME_RATE_LIMIT_SCIM_TOKEN: '1/60', SESAME_RATE_LIMIT_TOTP_USER: '1/60' }),
      logger,
      new Metrics('t'),
    );
    await limiter.enforce(scimCreateUser, { ...ip, scimToken: 'token-a' }, input());
    await limiter.enforce(scimCreateUser, { ...ip, scimToken: 'token-b' }, input());
    expect(await refusal(limiter, scimCreateUser, { ...ip, scimToken: 'token-a' }, input())).toEqual({
      error: {
        kind: 'scim',
        status: 429,
        detail: 'Too many requests: retry after the number of seconds in the Retry-After header',
      },
      headers: { 'retry-after': '120' },
    });
    const user = { org_domain: 'acme', user_id: '6f1c1a8e-0000-4000-8000-000000000001' };
    await limiter.enforce(validateTotpChallenge, ip, input({}, user));
    expect(await refusal(limiter, validateTotpChallenge, ip, input({}, user))).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('counts an invitation link per token, and the onboarding page’s calls per session cookie', async () => {
    const limiter = new RequestLimiter(
      new MapStore(),
      budgets({ SESAME_RATE_LIMIT_INVITATION_TOKEN: '1/60', SESAME_RATE_LIMIT_INVITATION_IP: '4/60' }),
      logger,
      new Metrics('t'),
    );
    expect(await refusal(limiter, openAdminInvitation, ip, input({ token: 'link-a' }))).toBeNull();
    expect(await refusal(limiter, openAdminInvitation, ip, input({ token: 'link-a' }))).toMatchObject({
      error: { kind: 'error', code: 'rate_limited' },
    });
    const withSession = (onboardingSession: string) => ({ ...ip, onboardingSession });
    const body = input({ provider_type: 'okta', metadata: '<x/>' });
    expect(await refusal(limiter, configureAdminInvitationSsoConnection, withSession('session-a'), body)).toBeNull();
    expect(await refusal(limiter, configureAdminInvitationSsoConnection, withSession('session-a'), body)).toMatchObject({
      error: { kind: 'error', code: 'rate_limited' },
    });
    expect(await refusal(limiter, configureAdminInvitationSsoConnection, withSession('session-b'), body)).toBeNull();
    // Without a cookie only the address counts (the call is then refused for want of a session).
    expect(await refusal(limiter, configureAdminInvitationSsoConnection, ip, body)).toBeNull();
    expect(await refusal(limiter, configureAdminInvitationSsoConnection, ip, body)).toMatchObject({
      error: { kind: 'error', code: 'rate_limited' },
    });
  });

  it('does not count what `off` turns off', async () => {
    const store = new MapStore();
    const limiter = new RequestLimiter(
      store,
      budgets({ SESAME_RATE_LIMIT_TOKEN_CLIENT: 'off', SESAME_RATE_LIMIT_TOKEN_IP: 'off' }),
      logger,
      new Metrics('t'),
    );
    for (let request = 0; request < 5; request++) await limiter.enforce(issueToken, ip, input({ client_id: 'c1' }));
    expect(store.counts.size).toBe(0);
  });

  it('fails open when the counters are unavailable: the request goes through, logged once and counted as error', async () => {
    const errors: unknown[] = [];
    const spy = { ...logger, error: (...args: unknown[]) => errors.push(args) } as unknown as typeof logger;
    const metrics = new Metrics('t');
    const limiter = new RequestLimiter(failing, budgets(), spy, metrics);
    await limiter.enforce(createPasswordChallenge, ip, input({ user_email: 'ada@acme.com' }));
    await limiter.enforce(createPasswordChallenge, ip, input({ user_email: 'ada@acme.com' }));
    expect(errors).toHaveLength(1);
    const counted = (await metrics.rateLimitDecisions.get()).values.filter((value) => value.labels.outcome === 'error');
    expect(counted.map((value) => [value.labels.limit, value.value])).toEqual([
      ['password_challenge_email', 2],
      ['password_ip', 2],
    ]);
  });
});

describe('rate-limit configuration', () => {
  const parse = (env: Record<string, string>) => z.object(rateLimitEnvShape).safeParse(env);

  it('defaults every budget and reads <requests>/<seconds> or off', () => {
    expect(budgets().password_challenge_email).toEqual({ limit: 10, windowMs: 60_000 });
    expect(budgets({ SESAME_RATE_LIMIT_MAGIC_LINK_EMAIL: '3/600' }).magic_link_email).toEqual({ limit: 3, windowMs: 600_000 });
    expect(budgets({ SESAME_RATE_LIMIT_SSO_IP: 'off' }).sso_ip).toBeNull();
  });

  it('refuses a malformed budget or a window over an hour, naming the variable', () => {
    for (const value of ['10', '0/60', '10/0', '-1/60', '10/60s', 'on'])
      expect(parse({ SESAME_RATE_LIMIT_TOTP_USER: value }).error?.issues).toEqual([
        expect.objectContaining({
          path: ['SESAME_RATE_LIMIT_TOTP_USER'],
          message: 'must be <requests>/<seconds> (e.g. 10/60) or off',
        }),
      ]);
    expect(parse({ SESAME_RATE_LIMIT_TOTP_USER: '10/3601' }).error?.issues).toEqual([
      expect.objectContaining({
        path: ['SESAME_RATE_LIMIT_TOTP_USER'],
        message: 'the window may not be longer than 3600 seconds',
      }),
    ]);
  });
});
