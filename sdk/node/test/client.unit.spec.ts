import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sesame, SesameApiError, SesameStreamError } from '../src';
import { TokenCache } from '../src/token';
import { retryAfterMs } from '../src/transport';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  at: number;
}

/** A real local HTTP server: `/oauth/token` answers tokens, every other call goes to `handler`. */
async function serve(handler: Handler, tokenLifetime = 3600) {
  const seen: Seen[] = [];
  let tokens = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, at: Date.now() });
      if (request.url === '/oauth/token') {
        tokens++;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ access_token: `token-${tokens}`, expires_in: tokenLifetime, token_type: 'Bearer', scope: '' }),
        );
        return;
      }
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    seen,
    calls: () => seen.filter((s) => s.url !== '/oauth/token'),
    tokenFetches: () => tokens,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', 'x-correlation-id': 'corr-1', ...headers });
  response.end(JSON.stringify(body));
};
const page = { current_page: 1, current_pages: 1, next_page: null, prev_page: null, per_page: 10, total_pages: 1 };

describe('TokenCache', () => {
  it('caches the token until the margin before expiry, and shares one fetch between concurrent calls', async () => {
    const server = await serve(() => undefined, 120);
    let now = 1_000_000;
    const cache = new TokenCache({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret' }, 60_000, () => now);
    try {
      expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual(['token-1', 'token-1', 'token-1']);
      expect(server.tokenFetches()).toBe(1);
      now += 59_000;
      expect(await cache.get()).toBe('token-1');
      now += 1_000;
      expect(await cache.get()).toBe('token-2');
      cache.invalidate('token-1');
      expect(await cache.get()).toBe('token-2');
      cache.invalidate('token-2');
      expect(await cache.get()).toBe('token-3');
      expect(server.seen[0]!.headers['content-type']).toBe('application/json');
    } finally {
      await server.close();
    }
  });
});

describe('retries', () => {
  it('waits what Retry-After asks on a 429, then answers the 200 (a GET)', async () => {
    let attempts = 0;
    const server = await serve((_, __, response) =>
      ++attempts === 1
        ? json(response, 429, { error: { type: 'rate_limited', message: 'slow', doc_urls: [] } }, { 'retry-after': '1' })
        : json(response, 200, { data: [], pagination: page, total: 0 }),
    );
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret', retry: { baseDelayMs: 1 } });
      expect(await sesame.request('get', '/api/v2/webhooks')).toEqual({ data: [], pagination: page, total: 0 });
      const [first, second] = server.calls();
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    } finally {
      await server.close();
    }
  });

  it('reuses the Idempotency-Key of a POST across its retries on 503, and gives up after maxAttempts', async () => {
    const server = await serve((_, __, response) =>
      json(response, 503, { error: { type: 'service_unavailable', message: 'Service Unavailable', doc_urls: ['/api'] } }),
    );
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret', retry: { baseDelayMs: 5 } });
      const error = await sesame.webhooks
        .create({ name: 'n', event_codes: [], target_url: 'https://x.test' } as never)
        .catch((e) => e);
      expect(error).toBeInstanceOf(SesameApiError);
      expect(error).toMatchObject({ status: 503, type: 'service_unavailable', correlationId: 'corr-1', docUrls: ['/api'] });
      const keys = server.calls().map((call) => call.headers['idempotency-key']);
      expect(keys).toHaveLength(3);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(keys).size).toBe(1);
      await sesame.webhooks.create({ name: 'n', event_codes: [], target_url: 'https://x.test' } as never).catch(() => undefined);
      expect(new Set(server.calls().map((call) => call.headers['idempotency-key'])).size).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('does not retry an answer other than 429/503 (a 500 is thrown at once)', async () => {
    const server = await serve((_, __, response) =>
      json(response, 500, { error: { type: 'internal_server_error', message: 'boom', doc_urls: [] } }),
    );
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret', retry: { baseDelayMs: 1 } });
      await expect(sesame.organizations.get('acme')).rejects.toMatchObject({ status: 500, message: 'boom' });
      expect(server.calls()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('fetches another token once on a 401 and replays the call', async () => {
    const server = await serve((request, _, response) =>
      request.headers.authorization === 'Bearer token-1'
        ? json(response, 401, { error: { type: 'unauthorized', message: 'expired', doc_urls: [] } })
        : json(response, 200, { domain: 'acme' }),
    );
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret' });
      expect(await sesame.organizations.get('acme')).toEqual({ domain: 'acme' });
      expect(server.tokenFetches()).toBe(2);
      expect(server.calls().map((c) => c.url)).toEqual(['/api/v2/organizations/acme', '/api/v2/organizations/acme']);
    } finally {
      await server.close();
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('errors and pages', () => {
  it('turns the field-errors shape into a SesameApiError with its fields', async () => {
    const server = await serve((_, __, response) => json(response, 422, { errors: { email: ['is invalid'] } }));
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret' });
      await expect(sesame.users.create('acme', { email: 'x' } as never)).rejects.toMatchObject({
        status: 422,
        type: 'invalid_fields',
        message: 'Invalid fields (email: is invalid)',
        fieldErrors: { email: ['is invalid'] },
        correlationId: 'corr-1',
      });
    } finally {
      await server.close();
    }
  });

  it('follows next_page until null', async () => {
    const server = await serve((request, _, response) => {
      const current = Number(new URL(request.url!, 'http://x').searchParams.get('page'));
      json(response, 200, {
        data: [`user-${current}`],
        pagination: { ...page, current_page: current, current_pages: current, next_page: current < 3 ? current + 1 : null },
        total: 3,
      });
    });
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret' });
      expect(await sesame.users.list('acme', { per_page: 1 }).toArray()).toEqual(['user-1', 'user-2', 'user-3']);
      expect(server.calls().map((c) => c.url)).toEqual([
        '/api/v2/org/acme/users?per_page=1&page=1',
        '/api/v2/org/acme/users?per_page=1&page=2',
        '/api/v2/org/acme/users?per_page=1&page=3',
      ]);
    } finally {
      await server.close();
    }
  });

  it('follows list_metadata.after while has_more (a cursor list), from the after asked', async () => {
    const server = await serve((request, _, response) => {
      const after = Number(new URL(request.url!, 'http://x').searchParams.get('after') ?? 0);
      json(response, 200, { data: [`event-${after + 1}`], list_metadata: { after: String(after + 1), has_more: after + 1 < 3 } });
    });
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret' });
      expect(await sesame.events.list({ events: ['user.*'] }).toArray()).toEqual(['event-1', 'event-2', 'event-3']);
      expect(await sesame.events.list({ after: '1' }).toArray()).toEqual(['event-2', 'event-3']);
      expect(server.calls().map((c) => c.url)).toEqual([
        '/api/v2/events?events=user.*',
        '/api/v2/events?events=user.*&after=1',
        '/api/v2/events?events=user.*&after=2',
        '/api/v2/events?after=1',
        '/api/v2/events?after=2',
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('events.export', () => {
  const query = { range_start: '2026-01-01T00:00:00.000Z', range_end: '2026-01-02T00:00:00.000Z' };
  /** Answers the lines in chunks cut anywhere (inside a line too), as a socket may deliver them. */
  const ndjson = (text: string) =>
    serve((_, __, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson', 'x-correlation-id': 'corr-2' });
      const chunks = [text.slice(0, 7), text.slice(7, 30), text.slice(30)];
      const write = () => (chunks.length ? response.write(chunks.shift(), () => setTimeout(write, 5)) : response.end());
      write();
    });
  const lines = (...items: unknown[]) => items.map((item) => `${JSON.stringify(item)}\n`).join('');

  it('yields each line parsed, joined across chunks', async () => {
    const server = await ndjson(lines({ id: 'e1', code: 'user.created' }, { id: 'e2', code: 'user.updated' }));
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret' });
      const seen = [];
      for await (const event of sesame.events.export(query as never)) seen.push(event);
      expect(seen).toEqual([
        { id: 'e1', code: 'user.created' },
        { id: 'e2', code: 'user.updated' },
      ]);
      expect(server.calls()[0]).toMatchObject({ url: expect.stringMatching(/^\/api\/v2\/events\/export\?range_start=/) });
    } finally {
      await server.close();
    }
  });

  it('throws the final error line as a SesameStreamError whose after resumes the export', async () => {
    const error = { type: 'service_unavailable', message: 'Service unavailable', doc_urls: ['https://docs/x'] };
    const server = await ndjson(lines({ id: 'e1', code: 'user.created' }, { error, after: 'cursor-1' }));
    try {
      const sesame = new Sesame({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret' });
      const seen: unknown[] = [];
      const reading = (async () => {
        for await (const event of sesame.events.export(query as never)) seen.push(event);
      })();
      const thrown = await reading.then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(seen).toEqual([{ id: 'e1', code: 'user.created' }]);
      expect(thrown).toBeInstanceOf(SesameStreamError);
      expect(thrown).toBeInstanceOf(SesameApiError);
      expect(thrown).toMatchObject({
        type: 'service_unavailable',
        message: 'Service unavailable',
        docUrls: ['https://docs/x'],
        after: 'cursor-1',
        correlationId: 'corr-2',
      });
    } finally {
      await server.close();
    }
  });
});
