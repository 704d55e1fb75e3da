import { randomUUID } from 'node:crypto';
import { System } from '../test/support/system';
import { report } from './lib/report';
import { timed } from './lib/timing';

const users = Number(process.env.BENCH_EVENTS_USERS ?? 1_000);
const pageSeconds = Number(process.env.BENCH_EVENTS_SECONDS ?? 10);
const concurrency = 8;

/**
 * The events feed (`GET /api/v2/events`): how fast the projection makes written events readable,
 * how fast a reader walks the whole feed (pages of 100), and pages of 10 per second (8 in flight).
 */
async function main() {
  const system = await System.start({ env: { SESAME_LOG_LEVEL: 'warn' } });
  try {
    const created = await system.request('POST', '/api/v2/organizations', {
      body: { name: `Bench Events ${randomUUID().slice(0, 8)}`, allowed_email_domains: ['bench-events.com'] },
    });
    if (created.status !== 201) throw new Error(`organization: ${created.status}`);
    const organization = created.body.id as string;
    const query = `organization_id=${organization}&events=user.created`;

    const writing = await timed({ count: users }, concurrency, async (index) => {
      const { status } = await system.request('POST', `/api/v2/org/${created.body.domain}/users`, {
        body: { email: `user-${index}@bench-events.com` },
      });
      if (status !== 201) throw new Error(`user ${index}: ${status}`);
    });
    const written = performance.now();
    const walk = async () => {
      let count = 0;
      let after = '';
      for (;;) {
        const { status, body } = await system.request(
          'GET',
          `/api/v2/events?${query}&limit=100${after ? `&after=${after}` : ''}`,
        );
        if (status !== 200) throw new Error(`events: ${status}`);
        count += body.data.length;
        after = body.list_metadata.after;
        if (!body.list_metadata.has_more) return count;
      }
    };
    while ((await walk()) < users) await new Promise((resolve) => setTimeout(resolve, 20));
    const projectionLagMs = performance.now() - written;

    const walkStarted = performance.now();
    const walked = await walk();
    const walkSeconds = (performance.now() - walkStarted) / 1_000;

    const pages = await timed({ seconds: pageSeconds }, concurrency, async () => {
      const { status } = await system.request('GET', `/api/v2/events?${query}&limit=10`);
      if (status !== 200) throw new Error(`events: ${status}`);
    });

    report(
      'events',
      [
        { name: 'users created (user.created events written)', value: writing.perSecond, unit: 'writes/s' },
        { name: 'last write to readable in the feed', value: projectionLagMs, unit: 'ms' },
        { name: 'events listed walking the feed (pages of 100)', value: walked / walkSeconds, unit: 'events/s' },
        { name: 'pages of 10 (8 in flight)', value: pages.perSecond, unit: 'pages/s' },
        { name: 'page of 10 p50', value: pages.p50, unit: 'ms' },
        { name: 'page of 10 p99', value: pages.p99, unit: 'ms' },
      ],
      { users, pageSeconds, concurrency, readModel: process.env.SESAME_READ_MODEL ?? 'memory' },
    );
  } finally {
    await system.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
