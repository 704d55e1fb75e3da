/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS module, loaded by ES modules, scripts and jest alike */
// CommonJS so that ES modules (`npm start`), scripts and jest tests can all load it.
// A small static file server for the built site (docs/public): the `.html` and `index.html`
// forms of a path serve the same page, and unknown paths get the not-found page of their language.
'use strict';
const { createReadStream, statSync } = require('node:fs');
const { createServer } = require('node:http');
const { extname, join, normalize, resolve, sep } = require('node:path');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

function fileAt(root, path) {
  const full = normalize(join(root, path));
  if (full !== root && !full.startsWith(root + sep)) return null;
  try {
    const stats = statSync(full);
    if (stats.isFile()) return full;
    if (stats.isDirectory()) {
      const index = join(full, 'index.html');
      if (statSync(index, { throwIfNoEntry: false })?.isFile()) return index;
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * Resolves a URL path to a file of the site: `{ file, status }`, or `{ redirect }` for a
 * directory asked without its trailing slash.
 */
function resolveRequest(root, pathname, languages = ['fr']) {
  let path;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    path = '/';
  }
  const direct = fileAt(root, path);
  if (direct) {
    // A directory asked without its trailing slash: send the canonical address.
    const directory = direct.endsWith(`${sep}index.html`) && !path.endsWith('/') && !path.endsWith('.html');
    return directory ? { redirect: `${path}/` } : { file: direct, status: 200 };
  }
  if (path.endsWith('.html')) {
    const page = fileAt(root, `${path.slice(0, -'.html'.length)}/index.html`);
    if (page) return { file: page, status: 200 };
  }
  const language = languages.find((lng) => path === `/${lng}` || path.startsWith(`/${lng}/`));
  const notFound = fileAt(root, language ? `/${language}/404.html` : '/404.html');
  return notFound ? { file: notFound, status: 404 } : { file: null, status: 404 };
}

/** A request handler serving the built site in `root`. */
function createDocsHandler(rootDir) {
  const root = resolve(rootDir);
  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://docs');
    const result = resolveRequest(root, url.pathname);
    if (result.redirect) {
      response.writeHead(301, { location: `${result.redirect}${url.search}` }).end();
      return;
    }
    if (!result.file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const type = types[extname(result.file)] ?? 'application/octet-stream';
    const immutable = /[\\/](static|[a-z-]+-[0-9a-f]{20}\.js)/.test(result.file) && !result.file.endsWith('.html');
    response.writeHead(result.status, {
      'content-type': type,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(result.file).pipe(response);
  };
}

/** Starts the server; resolves to `{ url, close }`. Port 0 picks a free port. */
function startDocsServer({ root, port = 0, host = '127.0.0.1' }) {
  const server = createServer(createDocsHandler(root));
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolvePromise({
        url: `http://${host}:${address.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

module.exports = { resolveRequest, createDocsHandler, startDocsServer };
