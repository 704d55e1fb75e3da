import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { resolveRequest, startDocsServer } from '../scripts/static-server.cjs';

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
});
