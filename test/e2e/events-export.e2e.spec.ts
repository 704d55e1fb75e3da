import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { eventually, unauthorized } from '../support/identity-fixtures';

interface FeedPage {
  data: { id: string; organization_id: string | null; environment: string; code: string }[];
  list_metadata: { after: string; has_more: boolean };
}

const long = 60_000;

/** The NDJSON export of the events feed, streamed by the gateway page after page (all processes, real NATS). */
describe('Events API: GET /api/v2/events/export', () => {
  let system: System;
  let production: ApiKey;
  let acme: { id: string; domain: string };
  let globex: { id: string; domain: string };
  const rangeStart = new Date(Date.now() - 3600_000).toISOString();
  const rangeEnd = () => new Date(Date.now() + 3600_000).toISOString();

  const organization = async (name: string, emailDomain: string, key?: ApiKey) => {
    const { status, body } = await system.request('POST', '/api/v2/organizations', {
      key,
      body: { name, allowed_email_domains: [emailDomain] },
    });
    if (status !== 201) throw new Error(`organization ${name}: ${status} ${JSON.stringify(body)}`);
    return { id: body.id as string, domain: body.domain as string };
  };
  const createUser = async (domain: string, email: string) => {
    const { status, body } = await system.request('POST', `/api/v2/org/${domain}/users`, { body: { email } });
    if (status !== 201) throw new Error(`user ${email}: ${status} ${JSON.stringify(body)}`);
  };
  /** The list's events for the query, page after page, as the JSON lines an export writes. */
  const listed = async (query: string, key?: ApiKey) => {
    const lines: string[] = [];
    let after: string | undefined;
    for (;;) {
      const { status, body } = await system.request('GET', `/api/v2/events?${query}&limit=100${after ? `&after=${after}` : ''}`, {
        key,
      });
      if (status !== 200) throw new Error(`events ${query}: ${status} ${JSON.stringify(body)}`);
      const page = body as FeedPage;
      lines.push(...page.data.map((event) => JSON.stringify(event)));
      after = page.list_metadata.after;
      if (!page.list_metadata.has_more) return lines;
    }
  };
  const exported = async (query: string, key?: ApiKey) => {
    const response = await fetch(`${system.baseUrl}/api/v2/events/export?${query}`, {
      headers: { authorization: `Bearer ${await system.token(key)}` },
    });
    return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
  };
  const linesOf = (text: string) => text.split('\n').filter((line) => line !== '');

  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
    acme = await organization('Export Acme', 'export-acme.com');
    globex = await organization('Export Globex', 'export-globex.com');
    // 620 users: the export spans two pages of the webhooks service (500 events each).
    const emails = Array.from({ length: 620 }, (_, index) => `reader-${index}@export-acme.com`);
    for (let start = 0; start < emails.length; start += 20)
      await Promise.all(emails.slice(start, start + 20).map((email) => createUser(acme.domain, email)));
    await createUser(globex.domain, 'ada@export-globex.com');
    await eventually(
      async () => (await listed(`organization_id=${acme.id}&events=user.created`)).length === emails.length,
      2 * long,
    );
  }, 4 * long);
  afterAll(async () => {
    await system?.stop();
  });

  it(
    "writes the list's events of the range and organization, one JSON line each, oldest first, across pages",
    async () => {
      const end = rangeEnd();
      const query = `range_start=${rangeStart}&range_end=${end}&organization_id=${acme.id}`;
      const answer = await exported(query);
      expect(answer.status).toBe(200);
      expect(answer.contentType).toBe('application/x-ndjson; charset=utf-8');
      expect(answer.text.endsWith('\n')).toBe(true);
      const lines = linesOf(answer.text);
      expect(lines.length).toBeGreaterThan(620);
      expect(lines).toEqual(await listed(query));
    },
    long,
  );

  it(
    'filters by codes and by the range (start included, end excluded)',
    async () => {
      const end = rangeEnd();
      const codes = await exported(`range_start=${rangeStart}&range_end=${end}&events=organization.*`);
      const lines = linesOf(codes.text);
      expect(lines.map((line) => JSON.parse(line).code)).toEqual(['organization.created', 'organization.created']);
      expect(lines).toEqual(await listed(`range_start=${rangeStart}&range_end=${end}&events=organization.*`));
      const first = JSON.parse(lines[0] as string) as { occurred_at: string };
      const before = await exported(`range_start=${rangeStart}&range_end=${first.occurred_at}&events=organization.*`);
      expect(before).toEqual({ status: 200, contentType: 'application/x-ndjson; charset=utf-8', text: '' });
      const from = await exported(`range_start=${first.occurred_at}&range_end=${end}&organization_id=${globex.id}`);
      expect(linesOf(from.text).map((line) => JSON.parse(line).code)).toEqual(['organization.created', 'user.created']);
    },
    long,
  );

  it(
    "another environment's key exports only its own environment's events",
    async () => {
      const own = await organization('Export Production', 'export-production.com', production);
      await eventually(async () => (await listed(`organization_id=${own.id}`, production)).length > 0, long);
      const all = linesOf((await exported(`range_start=${rangeStart}&range_end=${rangeEnd()}`, production)).text);
      expect(all.map((line) => JSON.parse(line).environment)).toEqual(all.map(() => 'production'));
      expect(all.map((line) => JSON.parse(line).organization_id)).toContain(own.id);
      expect(await exported(`range_start=${rangeStart}&range_end=${rangeEnd()}&organization_id=${acme.id}`, production)).toEqual({
        status: 200,
        contentType: 'application/x-ndjson; charset=utf-8',
        text: '',
      });
    },
    long,
  );

  it('refuses a request without a key, and a key without the webhooks:read privilege', async () => {
    const query = `/api/v2/events/export?range_start=${rangeStart}&range_end=${rangeEnd()}`;
    expect(await system.request('GET', query, { token: null })).toMatchObject({ status: 401, body: unauthorized });
    const usersOnly = system.createApiKey('sandbox', ['users:read']);
    expect(await system.request('GET', query, { key: usersOnly })).toMatchObject({ status: 401, body: unauthorized });
  });

  it.each([
    ['', { range_start: ["can't be blank"], range_end: ["can't be blank"] }],
    ['range_start=2026-01-01T00:00:00Z', { range_end: ["can't be blank"] }],
    ['range_start=yesterday&range_end=2026-01-01T00:00:00Z', { range_start: ['is not a valid ISO 8601 date-time'] }],
    ['range_start=2026-01-02T00:00:00Z&range_end=2026-01-01T00:00:00Z', { range_end: ['must be after range_start'] }],
    [
      'range_start=2025-01-01T00:00:00Z&range_end=2026-01-02T00:00:01Z',
      { range_end: ['must be at most 366 days after range_start'] },
    ],
    [
      'range_start=2026-01-01T00:00:00Z&range_end=2026-01-02T00:00:00Z&events=user.exploded',
      { 'events.0': ['is not a known event code'] },
    ],
    [
      'range_start=2026-01-01T00:00:00Z&range_end=2026-01-02T00:00:00Z&after=not-a-cursor!',
      { after: ['is not a cursor of this feed'] },
    ],
  ])('refuses %s with 422', async (query, errors) => {
    const { status, body } = await system.request('GET', `/api/v2/events/export?${query}`);
    expect(status).toBe(422);
    expect(body).toEqual({ errors });
  });
});
