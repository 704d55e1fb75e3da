import fc from 'fast-check';
import { System } from '../support/system';
import { notFound } from '../support/identity-fixtures';
import { OpenApiDocument } from '../support/openapi';
import type { DocumentedOperation, DocumentedParameter } from '../support/openapi';
import { hostileRequest, plausibleValue } from '../support/hostile-input';
import type { Fixtures } from '../support/hostile-input';
import { expectDocumentedAnswer } from '../support/documented-answer';
import { rawRequest, rawSocket } from '../support/raw-http';
import type { RawRequest } from '../support/raw-http';

/**
 * Property-based hostile input, driven by the published OpenAPI document: for every operation,
 * malformed, oversized, wrongly typed and unicode-edge parameters and bodies (JSON, forms with
 * deep brackets, raw bytes). Every answer is documented (no 5xx, no hang), and a rejected
 * request changes nothing any read operation can see.
 *
 * Bounded in `npm test`; `SESAME_FUZZ_RUNS` runs longer, `SESAME_FUZZ_SEED` replays a run.
 */
const runs = Number(process.env.SESAME_FUZZ_RUNS ?? 10);
const seed = Number(process.env.SESAME_FUZZ_SEED ?? 20_261_123);
const document = new OpenApiDocument();
const operations = document.operations();

describe('Hostile input on every documented operation (all processes, real NATS)', () => {
  let system: System;
  let fixtures: Fixtures & { resources: Map<string, Record<string, unknown>> };
  beforeAll(async () => {
    console.log(`hostile input fuzzer: seed ${seed}, ${runs} runs per operation (SESAME_FUZZ_SEED, SESAME_FUZZ_RUNS)`);
    system = await System.start();
    fixtures = await createFixtures(system);
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(20);
    console.log(
      `fixtures for ${[...fixtures.resources.keys()].join(', ')}; ${operations.length} operations: ${operations.map((o) => o.operationId).join(', ')}`,
    );
  });

  it.each(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))(
    '%s: documented answers only, nothing written on rejection',
    async (_name, operation) => {
      await fc.assert(
        fc.asyncProperty(hostileRequest(document, operation, fixtures), async (request) => {
          const before = operation.method === 'get' ? undefined : await snapshot();
          const answer = await send(request);
          expectDocumentedAnswer(document, operation, request, answer);
          if (before !== undefined && answer.status >= 400) {
            const after = await snapshot();
            if (after !== before)
              throw new Error(
                `rejected with ${answer.status} but state changed: ${request.method} ${request.path}\n${diff(before, after)}`,
              );
          }
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
    },
    600_000,
  );

  it('answers 413 in the documented shape to a body over the limit, and writes nothing', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(1_100_000) });
    for (const operation of operations.filter((candidate) => candidate.body)) {
      const before = await snapshot();
      const request = {
        method: operation.method.toUpperCase(),
        path: fillPath(operation),
        headers: { ...fixtures.authorization(), 'content-type': 'application/json' },
        body: huge,
      };
      const answer = await send(request);
      expectDocumentedAnswer(document, operation, request, answer);
      expect([operation.operationId, answer.status]).toEqual([operation.operationId, 413]);
      expect(await snapshot()).toBe(before);
    }
  });

  // Regression: the gateway closed the connection at once on a body over the limit; a client still
  // sending got a reset (EPIPE, ECONNRESET) instead of the 413, which the reset wiped.
  it.each([
    ['a JSON body', '/api/v2/organizations', 'application/json', JSON.stringify({ name: 'x'.repeat(16_000_000) })],
    ['a form body', '/oauth/token', 'application/x-www-form-urlencoded', `refresh_token[]=${'%00'.repeat(5_000_000)}`],
  ])('answers 413 to %s of 16 MB that is still being sent', async (_case, path, contentType, body) => {
    const operation = operations.find((candidate) => candidate.method === 'post' && candidate.path === path);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const request = { method: 'POST', path, headers: { ...fixtures.authorization(), 'content-type': contentType }, body };
      const answer = await send(request);
      expectDocumentedAnswer(document, operation, request, answer);
      expect(answer.status).toBe(413);
    }
  });

  // Regression: qs with strictDepth threw from inside the router and the form parser, an uncaught
  // exception that stopped the gateway on one unauthenticated request.
  it.each([
    ['a query string', 'GET', `/api/v2/organizations?q${'[a]'.repeat(20)}=1`, undefined],
    ['a form body', 'POST', '/api/v2/organizations', `name${'[a]'.repeat(20)}=1`],
    ['a form body without credentials', 'POST', '/oauth/token', `grant_type${'[a]'.repeat(20)}=1`],
  ])('answers brackets nested past the limit in %s with a documented error and stays up', async (_case, method, path, form) => {
    const operation = operations.find(
      (candidate) => candidate.method === method.toLowerCase() && path.startsWith(candidate.path),
    );
    const headers: Record<string, string> = { ...fixtures.authorization() };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const request = { method, path, headers, body: form };
    expectDocumentedAnswer(document, operation, request, await send(request));
    expect((await system.request('GET', '/api/v2/organizations')).status).toBe(200);
  });

  // Regression: these answered fastify's own `{ error: 'Bad Request', statusCode }` body (or a
  // 414), without a correlation id; the token endpoint answered malformed JSON in the API shape.
  const listOrganizations = () => operations.find((operation) => operation.operationId === 'listOrganizations');
  it.each([
    ['bytes that are not HTTP', 'HELLO\r\n\r\n', 400],
    ['a bare line feed inside a header', 'GET /api/v2/organizations HTTP/1.1\r\nHost: x\r\nX-A: a\nInjected: 1\r\n\r\n', 400],
    ['header folding', 'GET /api/v2/organizations HTTP/1.1\r\nHost: x\r\nX-A: a\r\n folded\r\n\r\n', 400],
    ['a NUL in a header', 'GET /api/v2/organizations HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n', 400],
    ['headers over 16 KB', `GET /api/v2/organizations HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    [
      'Content-Length and Transfer-Encoding together (smuggling)',
      'POST /api/v2/organizations HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /dev/outbox HTTP/1.1\r\nHost: x\r\n\r\n',
      400,
    ],
    [
      'two Content-Length headers',
      'POST /api/v2/organizations HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 30\r\n\r\n{}',
      400,
    ],
  ])('answers %s with the documented error shape, once', async (_case, bytes, status) => {
    const answer = await rawSocket(system.baseUrl, bytes);
    expectDocumentedAnswer(document, listOrganizations(), { method: 'RAW', path: bytes.slice(0, 80) }, answer);
    expect([answer.status, answer.responses]).toEqual([status, 1]);
  });

  it('answers a path parameter over the router limit with a documented 400, while a long valid email reaches the service', async () => {
    const operation = operations.find((candidate) => candidate.operationId === 'getUser');
    const long = {
      method: 'GET',
      path: fillPath(operation as DocumentedOperation).replace(/[^/]+$/, 'a'.repeat(1_500)),
      headers: fixtures.authorization(),
    };
    const answer = await send(long);
    expectDocumentedAnswer(document, operation, long, answer);
    expect(answer.status).toBe(400);
    const email = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.example.com`;
    const unknown = await system.request('GET', fillPath(operation as DocumentedOperation).replace(/[^/]+$/, email));
    expect(unknown).toMatchObject({ status: 404, body: notFound });
  });

  it('answers malformed JSON on the token endpoint in the OAuth shape', async () => {
    const answer = await send({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":',
    });
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_request', error_description: 'Malformed JSON body' } });
  });

  it('still answers normally after all of it', async () => {
    expect((await system.request('GET', '/api/v2/organizations')).status).toBe(200);
    expect((await fetch(`${system.baseUrl}/readyz`)).status).toBe(200);
  });

  const send = (request: RawRequest) => rawRequest(system.baseUrl, request, 30_000);

  /**
   * What every read operation answers with the fixtures' parameters: the state a client can see.
   * The reads are sent at once (a snapshot is taken before and after each rejected write: one at a
   * time they made this file the e2e tier's slowest, 240 s), their answers kept in the operations' order.
   */
  async function snapshot(): Promise<string> {
    const reads = operations
      .filter((operation) => operation.method === 'get')
      .map((operation) => ({ operationId: operation.operationId, path: fillPath(operation) }))
      .filter(({ path }) => !path.includes('{'));
    const answers = await Promise.all(
      reads.map(async ({ operationId, path }) => {
        const answer = await send({ method: 'GET', path, headers: fixtures.authorization() });
        return `${operationId} ${answer.status} ${answer.text}`;
      }),
    );
    return answers.join('\n');
  }

  function fillPath(operation: DocumentedOperation): string {
    let path = operation.path;
    for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'path')) {
      const value = fixtures.pathValue({ ...operation, method: 'get' }, parameter);
      if (value !== undefined) path = path.replace(`{${parameter.name}}`, value);
    }
    return path;
  }
});

/**
 * One resource per collection of the document, created with plausible bodies derived from it
 * (a few tries each), so that hostile requests also reach the checks behind a valid path.
 */
async function createFixtures(system: System) {
  const resources = new Map<string, Record<string, unknown>>();
  const organization = (await system.request('POST', '/api/v2/organizations', { body: { name: `Fuzz Corp ${Date.now()}` } }))
    .body;
  resources.set('/api/v2/organizations', organization);
  const orgDomain = organization.domain as string;
  const authorization = { authorization: `Bearer ${await system.token()}` };
  const collections = operations.filter(
    (operation) => operation.method === 'post' && operation.secured && operation.body && !resources.has(operation.path),
  );
  for (const operation of collections) {
    const bodies = fc.sample(plausibleValue(document, operation.body ?? {}), { numRuns: 20, seed });
    for (const body of bodies) {
      const path = operation.path.replace('{org_domain}', orgDomain);
      const answer = await system.request('POST', path, { body });
      if (answer.status < 300 && typeof answer.body === 'object') {
        resources.set(operation.path, answer.body);
        break;
      }
    }
  }
  const resourceFor = (operation: DocumentedOperation, parameter: DocumentedParameter) => {
    const collection = operation.path.slice(0, operation.path.indexOf(`/{${parameter.name}}`));
    return resources.get(collection);
  };
  return {
    resources,
    authorization: () => authorization,
    pathValue(operation: DocumentedOperation, parameter: DocumentedParameter): string | undefined {
      const pathParameters = operation.parameters.filter((candidate) => candidate.in === 'path');
      // A delete never targets a fixture: the fixtures must stay for the other operations.
      if (operation.method === 'delete' && pathParameters.at(-1)?.name === parameter.name) return undefined;
      if (parameter.name === 'org_domain') return orgDomain;
      const resource = resourceFor(operation, parameter);
      if (!resource) return undefined;
      const value = resource[parameter.name] ?? resource.id ?? resource.name;
      return value === undefined ? undefined : encodeURIComponent(String(value));
    },
  };
}

function diff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  return b
    .map((line, index) => (line === a[index] ? undefined : `- ${a[index]?.slice(0, 400)}\n+ ${line.slice(0, 400)}`))
    .filter(Boolean)
    .join('\n');
}
