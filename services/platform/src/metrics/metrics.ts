import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Outcome label of a sign-in attempt from the HTTP status its reply stands for. */
export type SignInOutcome = 'success' | 'failure' | 'error';

export const signInOutcome = (status: string): SignInOutcome =>
  status.startsWith('2') || status.startsWith('3') ? 'success' : status.startsWith('5') ? 'error' : 'failure';

const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Prometheus metrics of one process (`/metrics` on its management port). Labels take values from
 * bounded sets only (route templates, subjects, methods, statuses, read models): never an id, an
 * email, a tenant or an organization. Gauges whose value lives elsewhere (queues, job backlogs)
 * are read at each scrape from the sampler the component registers (`sample`).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'outcome'>;
  readonly requestDuration: Histogram<'route'>;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  readonly appendDuration: Histogram;
  readonly projectionLag: Gauge<'read_model'>;
  readonly projectionParked: Counter<'read_model'>;
  readonly rateLimitDecisions: Counter<'limit' | 'outcome'>;
  readonly signIns: Counter<'method' | 'outcome'>;
  readonly tokensIssued: Counter<'grant'>;
  readonly scimRequests: Counter<'operation' | 'status'>;
  readonly webhookDeliveries: Counter<'outcome'>;
  readonly webhookJobsWaiting: Gauge;
  readonly webhookOldestJobAge: Gauge;
  readonly mailDeliveries: Counter<'outcome'>;
  readonly mailQueueDepth: Gauge;
  readonly smsDeliveries: Counter<'outcome'>;
  private readonly samplers = new Map<string, () => Promise<number>>();
  private readonly sampledNames = new Map<Gauge, string>();
  private lagSampler?: () => Promise<Map<string, bigint>>;

  constructor(process: string) {
    this.registry.setDefaultLabels({ process });
    collectDefaultMetrics({ register: this.registry, prefix: 'sesame_' });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'sesame_requests_total',
      help: 'NATS requests a service handled, by subject (route) and the HTTP status its reply stands for (outcome)',
      labelNames: ['route', 'outcome'],
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'sesame_request_duration_seconds',
      help: 'NATS request latency by subject',
      labelNames: ['route'],
      buckets: latencyBuckets,
      registers,
    });
    this.httpRequests = new Counter({
      name: 'sesame_http_requests_total',
      help: 'HTTP requests the gateway answered, by method, route template (never the raw URL) and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpRequestDuration = new Histogram({
      name: 'sesame_http_request_duration_seconds',
      help: 'HTTP request latency at the gateway, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: latencyBuckets,
      registers,
    });
    this.appendDuration = new Histogram({
      name: 'sesame_event_store_append_seconds',
      help: 'Event store append latency',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers,
    });
    const lagOf = () => this.lagSampler?.();
    this.projectionLag = new Gauge({
      name: 'sesame_projection_lag_commits',
      help: 'Commits of the event store not yet applied to a read model, by read model (read at each scrape)',
      labelNames: ['read_model'],
      registers,
      async collect() {
        const lags = await lagOf()?.catch(() => undefined);
        for (const [readModel, lag] of lags ?? []) this.set({ read_model: readModel }, Number(lag));
      },
    });
    this.projectionParked = new Counter({
      name: 'sesame_projection_parked_total',
      help: 'Commits a projection could not apply, parked (see the <prefix>_parked_commits bucket) so that it goes on, by read model',
      labelNames: ['read_model'],
      registers,
    });
    this.rateLimitDecisions = new Counter({
      name: 'sesame_rate_limit_decisions_total',
      help: 'Gateway rate-limit checks by budget and outcome (allowed, refused, error: counters unavailable, let through)',
      labelNames: ['limit', 'outcome'],
      registers,
    });
    this.signIns = new Counter({
      name: 'sesame_sign_ins_total',
      help: 'Sign-in attempts where the user proves who they are, by method (password, magic_link, totp, sso) and outcome (success, failure, error)',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.tokensIssued = new Counter({
      name: 'sesame_tokens_issued_total',
      help: 'Tokens issued at the token endpoint, by grant type',
      labelNames: ['grant'],
      registers,
    });
    this.scimRequests = new Counter({
      name: 'sesame_scim_requests_total',
      help: 'SCIM requests by operation (users.create, groups.patch...) and HTTP status',
      labelNames: ['operation', 'status'],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'sesame_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.webhookJobsWaiting = this.sampledGauge(
      'sesame_webhook_jobs_waiting',
      'Webhook jobs not finished yet (available, scheduled, retryable, executing)',
    );
    this.webhookOldestJobAge = this.sampledGauge(
      'sesame_webhook_oldest_job_age_seconds',
      'Age of the oldest webhook job not finished yet (0 when none waits)',
    );
    this.mailDeliveries = new Counter({
      name: 'sesame_mail_deliveries_total',
      help: 'Queued mail handed to the mail server, by outcome (delivered, retried, dropped)',
      labelNames: ['outcome'],
      registers,
    });
    this.mailQueueDepth = this.sampledGauge('sesame_mail_queue_depth', 'Mail waiting in the queue or being delivered');
    this.smsDeliveries = new Counter({
      name: 'sesame_sms_deliveries_total',
      help: 'Text messages handed to the SMS provider (sent at once, no queue), by outcome (delivered, failed)',
      labelNames: ['outcome'],
      registers,
    });
  }

  /**
   * Reads `gauge` from `sampler` at each scrape. The process that owns the value registers it, and
   * only that process exposes the gauge (no webhook backlog of 0 in the gateway's metrics).
   */
  sample(gauge: Gauge, sampler: () => Promise<number>): void {
    const name = this.sampledNames.get(gauge);
    if (!name) throw new Error('Only a sampled gauge of these metrics can be sampled');
    if (!this.samplers.has(name)) this.registry.registerMetric(gauge);
    this.samplers.set(name, sampler);
  }

  /** Reads the projection lag of each read model at each scrape. */
  sampleProjectionLag(sampler: () => Promise<Map<string, bigint>>): void {
    this.lagSampler = sampler;
  }

  /** Every metric family these metrics define, sampled gauges included (alert rules and dashboards use only these). */
  families(): string[] {
    return [...this.registry.getMetricsAsArray().map((metric) => metric.name), ...this.sampledNames.values()].filter(
      (name, index, names) => names.indexOf(name) === index,
    );
  }

  private sampledGauge(name: string, help: string): Gauge {
    const samplers = this.samplers;
    const gauge = new Gauge({
      name,
      help,
      registers: [],
      async collect() {
        const sampler = samplers.get(name);
        if (sampler) this.set(await sampler().catch(() => Number.NaN));
      },
    });
    this.sampledNames.set(gauge, name);
    return gauge;
  }

  /** Times `task` under `route`, counting its outcome. */
  async observe<T>(route: string, task: () => Promise<T>, outcomeOf: (result: T) => string): Promise<T> {
    const end = this.requestDuration.startTimer({ route });
    try {
      const result = await task();
      this.requests.inc({ route, outcome: outcomeOf(result) });
      return result;
    } catch (error) {
      this.requests.inc({ route, outcome: 'exception' });
      throw error;
    } finally {
      end();
    }
  }
}
