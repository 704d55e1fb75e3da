import { get } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { System } from '../support/system';
import { eventually } from '../support/identity-fixtures';

interface FeedPage {
  data: { id: string; code: string }[];
  list_metadata: { after: string; has_more: boolean };
}

const long = 120_000;
const users = 160;
/** 50 metadata values of 1,990 characters: a user of about 100 KB, the largest the API takes. */
const heavyMetadata = (index: number) =>
  Object.fromEntries(Array.from({ length: 50 }, (_, key) => [`k${key}`, `${index}-${key}-`.padEnd(1_990, 'x')]));
const exportPageRoute = 'webhooks.event-feed.export-page';

/**
 * Events of about 100 KB each (160 users, 16 MB), through every process and real NATS: a page is
 * one NATS reply, so pages stop short of their limit rather than exceed NATS's payload; and an
 * export whose reader stops reading stops asking the webhooks service for pages until it reads on.
 */
describe('Events API: heavy events and an export reader that stops reading', () => {
  let system: System;
  let organization: { id: string; domain: string };
  const rangeStart = new Date(Date.now() - 3600_000).toISOString();
  const rangeEnd = new Date(Date.now() + 3600_000).toISOString();
  const query = () => `organization_id=${organization.id}&events=user.created`;

  const listed = async () => {
    const pages: FeedPage[] = [];
    let after: string | undefined;
    do {
      const answer = await system.request('GET', `/api/v2/events?${query()}&limit=100${after ? `&after=${after}` : ''}`);
      if (answer.status !== 200) throw new Error(`events: ${answer.status} ${JSON.stringify(answer.body)}`);
      pages.push(answer.body as FeedPage);
      after = (answer.body as FeedPage).list_metadata.after;
    } while (pages.at(-1)?.list_metadata.has_more);
    return pages;
  };
  /** The export-page requests the webhooks service has answered so far. */
  const pagesAsked = async () => {
    const text = await fetch(system.metricsUrl('webhooks')).then((response) => response.text());
    return text
      .split('\n')
      .filter((line) => line.startsWith('sesame_requests_total{') && line.includes(`"${exportPageRoute}"`))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
  };
  const settled = async (read: () => Promise<number>) => {
    let last = await read();
    for (let quiet = 0; quiet < 4;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await read();
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
    return last;
  };

  beforeAll(async () => {
    system = await System.start();
    const created = await system.request('POST', '/api/v2/organizations', {
      body: { name: 'Heavy Acme', allowed_email_domains: ['heavy-acme.com'] },
    });
    if (created.status !== 201) throw new Error(`organization: ${created.status} ${JSON.stringify(created.body)}`);
    organization = { id: created.body.id as string, domain: created.body.domain as string };
    for (let start = 0; start < users; start += 8)
      await Promise.all(
        Array.from({ length: Math.min(8, users - start) }, async (_, offset) => {
          const index = start + offset;
          const answer = await system.request('POST', `/api/v2/org/${organization.domain}/users`, {
            body: { email: `heavy-${index}@heavy-acme.com`, metadata: heavyMetadata(index) },
          });
          if (answer.status !== 201) throw new Error(`user ${index}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }),
      );
    await eventually(async () => (await listed()).flatMap((page) => page.data).length === users, long);
  }, 3 * long);
  afterAll(async () => {
    await system?.stop();
  });

  it(
    'answers pages lighter than a NATS message, shorter than their limit, and walks every event once',
    async () => {
      const pages = await listed();
      const events = pages.flatMap((page) => page.data);
      expect(new Set(events.map((event) => event.id)).size).toBe(users);
      expect(pages.length).toBeGreaterThan(users / 6);
      for (const page of pages) {
        expect(page.data.length).toBeGreaterThan(0);
        expect(page.data.length).toBeLessThan(10);
        expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThan(1024 * 1024);
      }
    },
    long,
  );

  it(
    'stops asking for pages while the reader does not read, then writes every event once, in order',
    async () => {
      const before = await pagesAsked();
      const token = await system.token();
      const url = `${system.baseUrl}/api/v2/events/export?range_start=${rangeStart}&range_end=${rangeEnd}&${query()}`;
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        get(url, { headers: { authorization: `Bearer ${token}` } }, resolve).on('error', reject),
      );
      response.pause();
      expect(response.statusCode).toBe(200);
      const whilePaused = (await settled(pagesAsked)) - before;

      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      await new Promise((resolve) => response.on('end', resolve).resume());
      const total = (await pagesAsked()) - before;
      const lines = Buffer.concat(chunks)
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '');

      expect(whilePaused).toBeGreaterThan(0);
      expect(whilePaused).toBeLessThan(total / 2);
      expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(
        (await listed()).flatMap((page) => page.data.map((event) => event.id)),
      );
      expect(lines).toHaveLength(users);
    },
    long,
  );
});
