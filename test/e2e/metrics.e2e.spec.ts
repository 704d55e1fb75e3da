import { randomUUID } from 'node:crypto';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { logLinesWith, processLogs } from '../support/process-logs';
import { System } from '../support/system';
import type { ProcessName } from '../support/system';
import { WebhookReceiver } from '../support/webhook-receiver';

type Labels = Record<string, string>;
interface Sample {
  name: string;
  labels: Labels;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The value of the sample `name` whose labels include `labels` (summed when several match), or undefined. */
function valueOf(samples: Sample[], name: string, labels: Labels = {}): number | undefined {
  const matching = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, sample) => sum + sample.value, 0);
}

const passphrase = 'correct horse battery staple 42';
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const long = 60_000;

/**
 * The metrics an operator alerts on, scraped from the management ports of the real system after
 * real traffic: sign-ins (one right, one wrong password), tokens by grant, a SCIM push, a webhook
 * delivery. The gateway's public port has no /metrics; its access log names route templates and
 * the trace id, never a token or a query string.
 */
describe('Metrics and access log (all processes, real NATS)', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let org: string;
  let emailDomain: string;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    system = await System.start({ processEnv: { webhooks: { SESAME_WEBHOOK_POLL_MS: '100' } } });
    emailDomain = `metrics-${randomUUID().slice(0, 8)}.example.com`;
    org = await createOrganization(system, `Metrics ${emailDomain}`, { allowed_email_domains: [emailDomain] });
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  const scrape = async (name: ProcessName) => {
    const response = await fetch(system.metricsUrl(name));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return response.text();
  };
  const token = (body: Record<string, string>) =>
    system.request('POST', '/oauth/token', { token: null, form: new URLSearchParams(body).toString() });

  it('counts sign-ins, tokens, SCIM requests and webhook deliveries, with bounded labels', async () => {
    const webhook = await system.request('POST', '/api/v2/webhooks', {
      body: { name: 'metrics', event_codes: ['user.created'], target_url: `${receiver.url}/metrics-hook` },
    });
    expect(webhook.status).toBe(201);
    const user = `ada@${emailDomain}`;
    expect(
      (await system.request('POST', '/api/v2/password', { body: { org_domain: org, user_email: user, plain_text: passphrase } }))
        .status,
    ).toBe(201);
    const challenge = (plain_text: string) =>
      system.request('POST', '/api/v2/password-challenge', { body: { org_domain: org, user_email: user, plain_text } });
    const right = await challenge(passphrase);
    expect(right.body).toMatchObject({ 'valid?': true, code: expect.any(String) });
    const { clientId, clientSecret } = system.apiKey;
    const exchanged = await token({
      grant_type: 'authorization_code',
      code: right.body.code,
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(exchanged.status).toBe(200);
    expect((await challenge('not the right passphrase 0')).body).toMatchObject({ 'valid?': false });
    expect((await token({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })).status).toBe(
      200,
    );

    const sync = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'azure_ad' } });
    expect(sync.status).toBe(201);
    const pushed = await system.request('POST', `${new URL(sync.body.scim_base_url).pathname}/Users`, {
      token: sync.body.auth_secret_token.value,
      headers: { 'content-type': 'application/scim+json' },
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `grace@${emailDomain}`,
        externalId: 'ext-grace',
        name: { givenName: 'Grace', familyName: 'Hopper' },
        emails: [{ value: `grace@${emailDomain}`, primary: true }],
        active: true,
      },
    });
    expect(pushed.status).toBe(201);
    await eventually(async () => receiver.to('/metrics-hook').length >= 2, long);

    const gateway = samplesOf(await scrape('gateway'));
    expect(
      valueOf(gateway, 'sesame_http_requests_total', { method: 'POST', route: '/api/v2/password-challenge', status: '200' }),
    ).toBe(2);
    expect(
      valueOf(gateway, 'sesame_http_requests_total', { method: 'POST', route: '/oauth/token', status: '200' }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      valueOf(gateway, 'sesame_http_requests_total', { method: 'POST', route: '/scim/v2/:directory_id/Users', status: '201' }),
    ).toBe(1);
    expect(
      valueOf(gateway, 'sesame_http_request_duration_seconds_count', { method: 'POST', route: '/api/v2/password-challenge' }),
    ).toBe(2);
    expect(
      valueOf(gateway, 'sesame_http_request_duration_seconds_bucket', { route: '/api/v2/password-challenge', le: '+Inf' }),
    ).toBe(2);
    expect(valueOf(gateway, 'sesame_rate_limit_decisions_total', { outcome: 'allowed' })).toBeGreaterThan(0);

    await eventually(async () => {
      const webhooks = samplesOf(await scrape('webhooks'));
      return (valueOf(webhooks, 'sesame_webhook_delivery_attempts_total', { outcome: 'delivered' }) ?? 0) >= 2;
    }, long);
    const webhooks = samplesOf(await scrape('webhooks'));
    expect(valueOf(webhooks, 'sesame_webhook_delivery_attempts_total', { outcome: 'failed' })).toBeUndefined();
    await eventually(async () => valueOf(samplesOf(await scrape('webhooks')), 'sesame_webhook_jobs_waiting') === 0, long);
    expect(valueOf(samplesOf(await scrape('webhooks')), 'sesame_webhook_oldest_job_age_seconds')).toBe(0);

    const authMethods = samplesOf(await scrape('auth-methods'));
    expect(valueOf(authMethods, 'sesame_sign_ins_total', { method: 'password', outcome: 'success' })).toBe(1);
    expect(valueOf(authMethods, 'sesame_sign_ins_total', { method: 'password', outcome: 'failure' })).toBe(1);
    expect(valueOf(authMethods, 'sesame_tokens_issued_total', { grant: 'authorization_code' })).toBe(1);
    expect(valueOf(authMethods, 'sesame_tokens_issued_total', { grant: 'client_credentials' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(authMethods, 'sesame_webhook_jobs_waiting')).toBeUndefined();

    const directorySync = samplesOf(await scrape('directory-sync'));
    expect(valueOf(directorySync, 'sesame_scim_requests_total', { operation: 'users.create', status: '201' })).toBe(1);

    for (const name of ['identity', 'auth-methods', 'directory-sync', 'webhooks'] as const) {
      const lags = samplesOf(await scrape(name)).filter((sample) => sample.name === 'sesame_projection_lag_commits');
      expect([name, lags.length > 0, lags.every((sample) => /^[a-z_]+_v[0-9]+$/.test(sample.labels.read_model ?? ''))]).toEqual([
        name,
        true,
        true,
      ]);
    }

    // Bounded labels: no organization, email, directory, user or webhook id anywhere.
    const texts = await Promise.all((['gateway', 'identity', 'auth-methods', 'directory-sync', 'webhooks'] as const).map(scrape));
    for (const secretish of [org, emailDomain, sync.body.id, webhook.body.id, pushed.body.id, clientId])
      for (const text of texts) expect(text).not.toContain(secretish);
  });

  it('serves /metrics on the management ports only: the gateway public port answers 404', async () => {
    const answer = await fetch(`${system.baseUrl}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('sesame_');
    expect((await fetch(`http://127.0.0.1:${system.gatewayManagementPort}/readyz`)).status).toBe(200);
    expect((await fetch(`${system.baseUrl}/readyz`)).status).toBe(200);
  });

  it('logs each request at info with its route template, status, duration, correlation and trace ids, never a token', async () => {
    const bearer = await system.token();
    const correlationId = `metrics-${randomUUID()}`;
    const secretQuery = `access_token=${bearer}&code=one-time-secret-code`;
    const answer = await system.request('GET', `/api/v2/organizations/${org}?${secretQuery}`, {
      headers: { 'x-correlation-id': correlationId, traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(answer.status).toBe(200);
    const [line] = await logLinesWith(system, correlationId);
    expect(line).toMatchObject({
      level: 'info',
      service: 'gateway',
      msg: 'request',
      correlationId,
      traceId,
      method: 'GET',
      route: '/api/v2/organizations/:org_domain',
      status: 200,
      ms: expect.any(Number),
    });
    const gatewayLog = processLogs(system)
      .split('\n')
      .filter((text) => text.includes('"service":"gateway"'))
      .join('\n');
    for (const secret of [bearer, 'one-time-secret-code', system.apiKey.clientSecret, passphrase])
      expect(gatewayLog).not.toContain(secret);
  });
});
