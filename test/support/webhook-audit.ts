import type { System } from './system';
import { readAll } from './visible-state';
import type { Resource } from './visible-state';
import type { ReceivedDelivery, WebhookReceiver } from './webhook-receiver';
import type { Written } from './write-load';

/** Delivery timers short enough for a bounded test; the lease outlives connect + response timeouts. */
export const fastDeliveryEnv = {
  SESAME_WEBHOOK_BACKOFF_BASE_MS: '200',
  SESAME_WEBHOOK_BACKOFF_MAX_MS: '1000',
  SESAME_WEBHOOK_CONNECT_TIMEOUT_MS: '1000',
  SESAME_WEBHOOK_RESPONSE_TIMEOUT_MS: '2000',
  SESAME_WEBHOOK_LEASE_MS: '4000',
  SESAME_WEBHOOK_POLL_MS: '100',
};

const pendingStates = new Set(['available', 'scheduled', 'executing', 'retryable']);
/** The event each kind of write publishes. */
const codeOfWrite: Partial<Record<Written['kind'], string>> = { organization: 'organization.created', user: 'user.created' };
/** Where each followed event's data carries the written resource's id. */
const writtenIdOf: Record<string, (data: any) => unknown> = {
  'organization.created': (data) => data?.id,
  'user.created': (data) => data?.user?.id,
};
export const followedCodes = Object.keys(writtenIdOf);
/** `code:resource id` of the write a job's event tells of. */
const writeOfJob = (job: Job) => `${job.args.code}:${String(writtenIdOf[job.args.code]?.(job.args.data))}`;

interface Job extends Resource {
  state: string;
  attempt: number;
  args: { id: string; code: string; data: unknown };
}

/**
 * The webhook the fault tests follow: every event the write load causes, delivered to a real
 * receiver that refuses the first attempt of one event in `refuseEvery` (503), so that retries
 * run across the faults too.
 */
export class FollowedWebhook {
  private readonly refused = new Set<ReceivedDelivery>();
  private readonly attempts = new Map<string, number>();
  private events = 0;

  private constructor(
    readonly id: string,
    private readonly receiver: WebhookReceiver,
    private readonly path: string,
  ) {}

  static async create(system: System, receiver: WebhookReceiver, refuseEvery = 7): Promise<FollowedWebhook> {
    const path = '/followed';
    const { status, body } = await system.request('POST', '/api/v2/webhooks', {
      body: { name: 'Followed by the fault tests', event_codes: followedCodes, target_url: `${receiver.url}${path}` },
    });
    if (status !== 201) throw new Error(`followed webhook: ${status} ${JSON.stringify(body)}`);
    const followed = new FollowedWebhook(body.id as string, receiver, path);
    receiver.on(path, (_, delivery) => {
      const eventId = String(delivery.headers['webhook-id']);
      const attempt = (followed.attempts.get(eventId) ?? 0) + 1;
      followed.attempts.set(eventId, attempt);
      if (attempt === 1 && followed.events++ % refuseEvery === 0) {
        followed.refused.add(delivery);
        return { status: 503 };
      }
      return { status: 200 };
    });
    return followed;
  }

  /** Every job of the webhook, read page by page. */
  async jobs(system: System): Promise<Job[]> {
    return (await readAll(system, '/api/v2/webhook-events', `&webhook_id=${this.id}`)) as Job[];
  }

  /**
   * Waits until every job is in a final state and every acknowledged write has its job (the
   * event reactor may lag behind the writes); answers the last reading, settled or not.
   */
  async settle(system: System, acknowledged: Written[], timeoutMs = 90_000): Promise<Job[]> {
    const started = Date.now();
    let jobs: Job[] = [];
    for (;;) {
      jobs = await this.jobs(system).catch(() => jobs);
      const settled = jobs.every((job) => !pendingStates.has(job.state)) && unpublished(acknowledged, jobs).length === 0;
      if (settled || Date.now() - started > timeoutMs) return jobs;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** The events that got more than one job, with their jobs' ids. */
  duplicates(jobs: Job[]): { eventId: string; jobIds: number[] }[] {
    const byEvent = new Map<string, number[]>();
    for (const job of jobs) byEvent.set(job.args.id, [...(byEvent.get(job.args.id) ?? []), Number(job.id)]);
    return [...byEvent].filter(([, ids]) => ids.length > 1).map(([eventId, jobIds]) => ({ eventId, jobIds }));
  }

  /** What became of every event, by the jobs' states and by what the receiver got. */
  audit(acknowledged: Written[], jobs: Job[]) {
    const accepted = this.receiver.to(this.path).filter((delivery) => !this.refused.has(delivery));
    const deliveredTimes = new Map<string, number>();
    for (const delivery of accepted) {
      const eventId = String(delivery.headers['webhook-id']);
      deliveredTimes.set(eventId, (deliveredTimes.get(eventId) ?? 0) + 1);
    }
    const states: Record<string, number> = {};
    for (const job of jobs) states[job.state] = (states[job.state] ?? 0) + 1;
    const eventIds = jobs.map((job) => job.args.id);
    const jobIds = new Set(eventIds);
    const eventsOfWrite = new Map<string, Set<string>>();
    for (const job of jobs)
      eventsOfWrite.set(writeOfJob(job), (eventsOfWrite.get(writeOfJob(job)) ?? new Set()).add(job.args.id));
    return {
      jobs: jobs.length,
      states,
      notCompleted: jobs
        .filter((job) => job.state !== 'completed')
        .map((job) => `${job.id} ${job.state} after ${job.attempt} attempts`),
      /**
       * The reactor applied an event twice: two jobs for one event id, each named with its id (the
       * revision at which its event's marker was created) and when it was inserted.
       */
      jobsForOneEvent: jobs
        .filter((job) => eventIds.indexOf(job.args.id) !== eventIds.lastIndexOf(job.args.id))
        .map((job) => `event ${job.args.id}: job ${job.id} inserted at ${String(job.inserted_at)}`),
      /** A write turned into two events (distinct ids): a command or a projection applied twice. */
      eventsForOneWrite: [...eventsOfWrite]
        .filter(([, events]) => events.size > 1)
        .map(([write, events]) => `${write}: ${[...events].join(', ')}`),
      unpublished: unpublished(acknowledged, jobs),
      undelivered: [...jobIds].filter((id) => !deliveredTimes.has(id)),
      deliveries: accepted.length,
      refusedFirstAttempts: this.refused.size,
      /** At least once: the same event id delivered again (a kill -9 between the answer and its record). */
      duplicateDeliveries: [...deliveredTimes.values()].reduce((sum, times) => sum + times - 1, 0),
      deliveriesOfUnknownEvents: [...deliveredTimes.keys()].filter((id) => !jobIds.has(id)),
    };
  }
}

/** Acknowledged writes that publish an event and have no job carrying their id. */
function unpublished(acknowledged: Written[], jobs: Job[]): Written[] {
  const published = new Set(jobs.map(writeOfJob));
  return acknowledged.filter((written) => {
    const code = codeOfWrite[written.kind];
    return code !== undefined && !published.has(`${code}:${written.id}`);
  });
}
