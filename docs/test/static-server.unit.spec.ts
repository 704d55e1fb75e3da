import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { acceptedEncodings, isImmutable, resolveRequest, startDocsServer } from '../scripts/static-server.cjs';
import { precompress } from '../src/search/precompress';

/** A raw HTTP GET (fetch would decompress and hide Content-Encoding): status, headers and bytes. */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('static server of the built site', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sesame-docs-'));
    for (const [path, body] of Object.entries({
      'index.html': 'home',
      'password/index.html': 'password',
      'fr/password/index.html': 'mot de passe',
      '404.html': 'not found',
      'fr/404.html': 'introuvable',
      'openapi.json': '{}',
      'app-0123456789abcdef0123.js': `console.log(${JSON.stringify('sesame '.repeat(400))});`,
      'fr/guide/index.html': `<p>${'documentation en français '.repeat(100)}</p>`,
    })) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), body);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('serves the .html and index.html forms of a path as the page', () => {
    for (const path of ['/password/', '/password.html', '/password/index.html'])
      expect(resolveRequest(root, path)).toEqual({ file: join(root, 'password', 'index.html'), status: 200 });
    expect(resolveRequest(root, '/fr/password.html')).toEqual({ file: join(root, 'fr', 'password', 'index.html'), status: 200 });
    expect(resolveRequest(root, '/password')).toEqual({ redirect: '/password/' });
  });

  it('answers unknown paths with the not-found page of their language, and never leaves the site folder', () => {
    expect(resolveRequest(root, '/nope/')).toEqual({ file: join(root, '404.html'), status: 404 });
    expect(resolveRequest(root, '/fr/nope.html')).toEqual({ file: join(root, 'fr', '404.html'), status: 404 });
    expect(resolveRequest(root, '/../../etc/passwd')).toEqual({ file: join(root, '404.html'), status: 404 });
    expect(resolveRequest(root, '/%2e%2e/%2e%2e/etc/passwd')).toEqual({ file: join(root, '404.html'), status: 404 });
  });

  it('answers over HTTP with content types and statuses', async () => {
    const server = await startDocsServer({ root });
    try {
      const page = await fetch(`${server.url}/fr/password.html`);
      expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([
        200,
        'text/html; charset=utf-8',
        'mot de passe',
      ]);
      const missing = await fetch(`${server.url}/fr/missing/`);
      expect([missing.status, await missing.text()]).toEqual([404, 'introuvable']);
      const spec = await fetch(`${server.url}/openapi.json`);
      expect(spec.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect((await fetch(`${server.url}/password/`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it('lets browsers keep the files named by their content for a year, and revalidate the others', async () => {
    const hashed = ['/static/logo-0a1b2c.svg', '/app-0123456789abcdef0123.js', '/599-8de1cfbc68159f6ae847.js'];
    const named = [...hashed, '/49e6a758-1675e2866eef25dce6f5.js', '/styles.26ef34953ea0f7def8c0.css'];
    for (const path of named) expect([path, isImmutable(root, join(root, path))]).toEqual([path, true]);
    const revalidated = ['/index.html', '/fr/index.html', '/page-data/fr/page-data.json', '/search/fr.json', '/logo.svg'];
    for (const path of [...revalidated, '/app-0123.js', '/static-page/index.html'])
      expect([path, isImmutable(root, join(root, path))]).toEqual([path, false]);
    const server = await startDocsServer({ root });
    try {
      const script = await fetch(`${server.url}/app-0123456789abcdef0123.js`);
      expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const page = await fetch(`${server.url}/fr/guide/`);
      expect(page.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      const missing = await fetch(`${server.url}/app-ffffffffffffffffffff.js`);
      expect([missing.status, missing.headers.get('cache-control')]).toEqual([404, 'public, max-age=0, must-revalidate']);
    } finally {
      await server.close();
    }
  });

  describe('precompressed files and validators', () => {
    let server: { url: string; close(): Promise<void> };
    const { brotliDecompressSync, gunzipSync } = jest.requireActual<typeof import('node:zlib')>('node:zlib');
    beforeAll(async () => {
      expect(await precompress(root)).toBe(2);
      server = await startDocsServer({ root });
    });
    afterAll(() => server.close());
    const js = () => `${server.url}/app-0123456789abcdef0123.js`;

    it('reads Accept-Encoding with its weights', () => {
      expect(acceptedEncodings('gzip, deflate, br')).toEqual(['br', 'gzip']);
      expect(acceptedEncodings('br;q=0, gzip;q=0.5')).toEqual(['gzip']);
      expect(acceptedEncodings('*')).toEqual(['br', 'gzip']);
      expect(acceptedEncodings('*;q=0, identity')).toEqual([]);
      expect(acceptedEncodings(undefined)).toEqual([]);
    });

    it('sends brotli when accepted, gzip otherwise, the file itself when neither is', async () => {
      const original = `console.log(${JSON.stringify('sesame '.repeat(400))});`;
      const br = await get(js(), { 'accept-encoding': 'gzip, br' });
      expect([br.status, br.headers['content-encoding'], br.headers['content-type'], br.headers.vary]).toEqual([
        200,
        'br',
        'text/javascript; charset=utf-8',
        'Accept-Encoding',
      ]);
      expect(brotliDecompressSync(br.body).toString()).toBe(original);
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(br.body.length).toBeLessThan(original.length / 10);
      const gz = await get(js(), { 'accept-encoding': 'gzip, br;q=0' });
      expect([gz.status, gz.headers['content-encoding'], gz.headers['content-type']]).toEqual([
        200,
        'gzip',
        'text/javascript; charset=utf-8',
      ]);
      expect(gunzipSync(gz.body).toString()).toBe(original);
      const plain = await get(js());
      expect([plain.status, plain.headers['content-encoding'], plain.headers.vary, plain.body.toString()]).toEqual([
        200,
        undefined,
        'Accept-Encoding',
        original,
      ]);
      const page = await get(`${server.url}/fr/guide/`, { 'accept-encoding': 'br' });
      expect([page.headers['content-encoding'], page.headers['content-type']]).toEqual(['br', 'text/html; charset=utf-8']);
      // A file too small to be worth compressing has no variant: sent as it is.
      const small = await get(`${server.url}/openapi.json`, { 'accept-encoding': 'br, gzip' });
      expect([small.headers['content-encoding'], small.body.toString()]).toEqual([undefined, '{}']);
    });

    it('answers 304 to a matching If-None-Match, with an ETag per encoding', async () => {
      const br = await get(js(), { 'accept-encoding': 'br' });
      const gz = await get(js(), { 'accept-encoding': 'gzip' });
      const plain = await get(js());
      const tags = [br, gz, plain].map((answer) => answer.headers.etag as string);
      expect(new Set(tags).size).toBe(3);
      for (const tag of tags) expect(tag).toMatch(/^"[0-9a-f]+-[0-9a-f]+(-br|-gzip)?"$/);
      const again = await get(js(), { 'accept-encoding': 'br', 'if-none-match': tags[0]! });
      expect([again.status, again.body.length, again.headers.etag, again.headers.vary]).toEqual([
        304,
        0,
        tags[0],
        'Accept-Encoding',
      ]);
      expect((await get(js(), { 'accept-encoding': 'br', 'if-none-match': `"x", W/${tags[0]}` })).status).toBe(304);
      expect((await get(js(), { 'if-none-match': '*' })).status).toBe(304);
      // Another representation's tag does not match: the full body is sent.
      const other = await get(js(), { 'accept-encoding': 'gzip', 'if-none-match': tags[0]! });
      expect([other.status, other.headers['content-encoding'], other.headers.etag]).toEqual([200, 'gzip', tags[1]]);
      // The not-found page is never a 304.
      const missing = await get(`${server.url}/fr/missing/`);
      expect((await get(`${server.url}/fr/missing/`, { 'if-none-match': missing.headers.etag as string })).status).toBe(404);
    });

    it('never serves a file outside the site folder, compressed or not', async () => {
      writeFileSync(join(root, '..', 'outside-secret.txt.br'), 'secret');
      for (const path of ['/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/..%2foutside-secret.txt']) {
        const answer = await get(`${server.url}${path}`, { 'accept-encoding': 'br' });
        expect([answer.status, answer.body.toString()]).toEqual([404, 'not found']);
      }
      rmSync(join(root, '..', 'outside-secret.txt.br'));
    });
  });
});
