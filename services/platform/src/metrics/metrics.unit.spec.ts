import { Metrics, signInOutcome } from './metrics';

describe('Metrics', () => {
  it('exposes a sampled gauge only in the process that samples it, read at each scrape', async () => {
    const metrics = new Metrics('webhooks');
    expect(await metrics.registry.metrics()).not.toContain('sesame_webhook_jobs_waiting');
    let waiting = 3;
    metrics.sample(metrics.webhookJobsWaiting, async () => waiting);
    expect(await metrics.registry.metrics()).toContain('sesame_webhook_jobs_waiting{process="webhooks"} 3');
    waiting = 0;
    expect(await metrics.registry.metrics()).toContain('sesame_webhook_jobs_waiting{process="webhooks"} 0');
  });

  it('shows NaN, not a stale value, when its sampler fails', async () => {
    const metrics = new Metrics('identity');
    metrics.sample(metrics.mailQueueDepth, async () => {
      throw new Error('NATS away');
    });
    // prom-client writes `Nan`; Prometheus reads not-a-number in any case.
    expect(await metrics.registry.metrics()).toMatch(/^sesame_mail_queue_depth\{process="identity"\} nan$/im);
  });

  it('lists every family it defines, sampled gauges included', () => {
    const families = new Metrics('test').families();
    expect(families).toEqual(
      expect.arrayContaining([
        'sesame_http_requests_total',
        'sesame_http_request_duration_seconds',
        'sesame_sign_ins_total',
        'sesame_tokens_issued_total',
        'sesame_scim_requests_total',
        'sesame_webhook_delivery_attempts_total',
        'sesame_webhook_jobs_waiting',
        'sesame_webhook_oldest_job_age_seconds',
        'sesame_mail_deliveries_total',
        'sesame_mail_queue_depth',
        'sesame_sms_deliveries_total',
        'sesame_projection_lag_commits',
        'sesame_projection_parked_total',
        'sesame_rate_limit_decisions_total',
        'sesame_process_cpu_seconds_total',
      ]),
    );
    expect(new Set(families).size).toBe(families.length);
  });

  it.each([
    ['200', 'success'],
    ['302', 'success'],
    ['401', 'failure'],
    ['422', 'failure'],
    ['500', 'error'],
    ['exception', 'failure'],
  ])('a sign-in answered %s is a %s', (status, outcome) => {
    expect(signInOutcome(status)).toBe(outcome);
  });
});

describe('Metrics: projection lag', () => {
  it('reads the lag of each read model at each scrape', async () => {
    const metrics = new Metrics('identity');
    let lags = new Map([
      ['organizations_v3', 4n],
      ['users_v2', 0n],
    ]);
    metrics.sampleProjectionLag(async () => lags);
    const text = await metrics.registry.metrics();
    expect(text).toContain('sesame_projection_lag_commits{read_model="organizations_v3",process="identity"} 4');
    expect(text).toContain('sesame_projection_lag_commits{read_model="users_v2",process="identity"} 0');
    lags = new Map([
      ['organizations_v3', 0n],
      ['users_v2', 0n],
    ]);
    expect(await metrics.registry.metrics()).toContain(
      'sesame_projection_lag_commits{read_model="organizations_v3",process="identity"} 0',
    );
  });
});
