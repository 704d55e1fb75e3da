import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one process (`/metrics`). */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'outcome'>;
  readonly requestDuration: Histogram<'route'>;
  readonly appendDuration: Histogram;
  readonly projectionLag: Gauge;
  readonly projectionParked: Counter<'read_model'>;
  readonly rateLimitDecisions: Counter<'limit' | 'outcome'>;

  constructor(process: string) {
    this.registry.setDefaultLabels({ process });
    collectDefaultMetrics({ register: this.registry, prefix: 'sesame_' });
    this.requests = new Counter({
      name: 'sesame_requests_total',
      help: 'Requests handled, by route (HTTP route or NATS subject) and outcome',
      labelNames: ['route', 'outcome'],
      registers: [this.registry],
    });
    this.requestDuration = new Histogram({
      name: 'sesame_request_duration_seconds',
      help: 'Request latency by route',
      labelNames: ['route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.appendDuration = new Histogram({
      name: 'sesame_event_store_append_seconds',
      help: 'Event store append latency',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers: [this.registry],
    });
    this.projectionLag = new Gauge({
      name: 'sesame_projection_lag_commits',
      help: 'Commits of the event store not yet applied to the read models',
      registers: [this.registry],
    });
    this.projectionParked = new Counter({
      name: 'sesame_projection_parked_total',
      help: 'Commits a projection could not apply, parked (see the <prefix>_parked_commits bucket) so that it goes on, by read model',
      labelNames: ['read_model'],
      registers: [this.registry],
    });
    this.rateLimitDecisions = new Counter({
      name: 'sesame_rate_limit_decisions_total',
      help: 'Gateway rate-limit checks by budget and outcome (allowed, refused, error: counters unavailable, let through)',
      labelNames: ['limit', 'outcome'],
      registers: [this.registry],
    });
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
