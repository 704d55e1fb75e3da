/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS module, loaded by ES modules, scripts and jest alike */
// CommonJS so that ES modules (`npm start`), scripts and jest tests can all load it.
// A small static file server for the built site (docs/public): the `.html` and `index.html`
// forms of a path serve the same page, and unknown paths get the not-found page of their language.
// The build writes `.br` and `.gz` siblings of the text files (docs/src/site/precompress.ts): they
// are served when Accept-Encoding allows, and every answer carries an ETag (304 on If-None-Match).
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

/** The encodings a request accepts (`br`, `gzip`), honouring `;q=0` and `*`. */
function acceptedEncodings(header) {
  const weights = new Map();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  const accepts = (name) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  return ['br', 'gzip'].filter(accepts);
}

/** The precompressed sibling of `file` to send (`{ path, encoding }`), or the file itself. */
function chooseVariant(file, acceptEncoding) {
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    const path = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isFile()) return { path, encoding, stats };
  }
  return { path: file, encoding: undefined, stats: statSync(file) };
}

/**
 * Whether a file's name changes with its content, so it may be cached for a year: the files
 * under /static/ (Gatsby names them by hash) and the build's `<name>-<20 hex>.js` chunks
 * (named, numeric or hashed: `app-…`, `599-…`, `49e6a758-…`) and `styles.<20 hex>.css`.
 * Pages, page data and unhashed files (logo, favicon, search indexes) are revalidated.
 */
function isImmutable(root, file) {
  const path = file.slice(root.length).split(sep).join('/');
  return path.startsWith('/static/') || /^\/(?:[\w-]+-[0-9a-f]{20}\.js|styles\.[0-9a-f]{20}\.css)$/.test(path);
}

/** A strong validator of one representation: size and modification time, and its encoding. */
function etagOf(stats, encoding) {
  return `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
}

/** Whether an If-None-Match header matches the ETag (weak comparison, RFC 9110 section 13.1.2). */
function matchesEtag(ifNoneMatch, etag) {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
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
    const immutable = result.status === 200 && isImmutable(root, result.file);
    const variant = chooseVariant(result.file, request.headers['accept-encoding']);
    const etag = etagOf(variant.stats, variant.encoding);
    const headers = {
      'content-type': type,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      'x-content-type-options': 'nosniff',
      vary: 'Accept-Encoding',
      etag,
    };
    if (result.status === 200 && matchesEtag(request.headers['if-none-match'], etag)) {
      response.writeHead(304, headers).end();
      return;
    }
    if (variant.encoding) headers['content-encoding'] = variant.encoding;
    response.writeHead(result.status, { ...headers, 'content-length': variant.stats.size });
    if (request.method === 'HEAD') response.end();
    else createReadStream(variant.path).pipe(response);
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

module.exports = { resolveRequest, acceptedEncodings, isImmutable, createDocsHandler, startDocsServer };
