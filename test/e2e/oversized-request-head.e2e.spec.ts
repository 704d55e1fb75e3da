import { OpenApiDocument } from '../support/openapi';
import { expectDocumentedAnswer } from '../support/documented-answer';
import { rawRequest, rawSocket } from '../support/raw-http';
import type { RawAnswer } from '../support/raw-http';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';

const document = new OpenApiDocument();
const listOrganizations = document.operations().find((operation) => operation.operationId === 'listOrganizations');
const listRedirectUris = document.operations().find((operation) => operation.operationId === 'listRedirectUris');

const uriTooLong = {
  error: { type: 'uri_too_long', message: 'Request URI is too long', doc_urls: ['http://localhost:8000/api'] },
};
const headersTooLarge = {
  error: { type: 'headers_too_large', message: 'Request headers are too large', doc_urls: ['http://localhost:8000/api'] },
};

/**
 * Regression (issue 16, defect 16): a request line or headers over the gateway's 16 KB limit got
 * `write ECONNRESET` instead of an answer (the hostile-input fuzzer, seed 20261123, on
 * `GET /api/v2/redirect_uris?page=607&current_page=xxx…`): the gateway wrote its 431 and destroyed
 * the socket while the client was still sending, and the reset wiped the answer. Now an over-long
 * request line answers 414, over-long headers 431, in the documented shape, and the connection is
 * closed only after the rest of the request was read (as the 413 path does for bodies).
 */
describe('Over-long request lines and headers (gateway, real processes)', () => {
  let system: System;
  beforeAll(async () => {
    system = await sharedSystem();
  });

  const expectAnswer = (answer: RawAnswer, path: string, status: number, body: unknown) => {
    expectDocumentedAnswer(document, listRedirectUris, { method: 'GET', path }, answer);
    expect([answer.status, answer.json, answer.headers.connection]).toEqual([status, body, 'close']);
  };

  it.each([
    ['20 KB', 20_000],
    ['60 KB', 60_000],
    ['1 MB', 1_000_000],
    ['3 MB of multibyte characters', 3_000_000],
  ])('answers 414 to a request line of %s, every time', async (_case, length) => {
    const path = `/api/v2/redirect_uris?page=607&current_page=${'%F0%9F%98%80'.repeat(Math.ceil(length / 12))}`;
    for (let attempt = 0; attempt < 3; attempt++)
      expectAnswer(await rawRequest(system.baseUrl, { method: 'GET', path, headers: {} }), path, 414, uriTooLong);
  });

  it.each([
    ['one header of 20 KB', { 'x-a': 'a'.repeat(20_000) }],
    ['one header of 1 MB', { 'x-a': 'a'.repeat(1_000_000) }],
    ['400 headers of 100 bytes', Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`x-h${i}`, 'h'.repeat(100)]))],
  ])('answers 431 to %s, every time', async (_case, headers) => {
    for (let attempt = 0; attempt < 3; attempt++)
      expectAnswer(
        await rawRequest(system.baseUrl, { method: 'GET', path: '/api/v2/redirect_uris', headers }),
        '/api/v2/redirect_uris',
        431,
        headersTooLarge,
      );
  });

  it('answers 414 and 431 on a bare socket sending the head in small pieces, once each', async () => {
    const line = `GET /api/v2/sso-connections?q=${'x'.repeat(200_000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const header = `GET /api/v2/sso-connections HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(200_000)}\r\n\r\n`;
    for (const [bytes, status, body] of [
      [line, 414, uriTooLong],
      [header, 431, headersTooLarge],
    ] as const) {
      const answer = await rawSocket(system.baseUrl, pieces(bytes, 1_000));
      expectDocumentedAnswer(document, listOrganizations, { method: 'RAW', path: bytes.slice(0, 80) }, answer);
      expect([answer.status, answer.json, answer.responses]).toEqual([status, body, 1]);
    }
  });

  it('answers a client that reads only after sending a head of several megabytes, instead of resetting it', async () => {
    const line = `GET /api/v2/redirect_uris?page=607&current_page=${'x'.repeat(4_000_000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const header = `GET /api/v2/redirect_uris HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(4_000_000)}\r\n\r\n`;
    for (const [bytes, status, body] of [
      [line, 414, uriTooLong],
      [header, 431, headersTooLarge],
    ] as const) {
      const answer = await rawSocket(system.baseUrl, bytes, 30_000, { readLast: true });
      expectDocumentedAnswer(document, listRedirectUris, { method: 'RAW', path: bytes.slice(0, 80) }, answer);
      expect([answer.status, answer.json, answer.responses]).toEqual([status, body, 1]);
    }
  });

  it('still answers a request line under the limit, and stays up', async () => {
    const path = `/api/v2/redirect_uris?page=1&q=${'x'.repeat(8_000)}`;
    const answer = await rawRequest(system.baseUrl, {
      method: 'GET',
      path,
      headers: { authorization: `Bearer ${await system.token()}` },
    });
    expect(answer.status).toBe(200);
    expect((await fetch(`${system.baseUrl}/readyz`)).status).toBe(200);
  });
});

/** `text` as chunks of `size` bytes, written one after the other. */
function pieces(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}
