import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  ms: number;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given: no normalisation of `..` or re-encoding (unlike fetch). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** One HTTP request through node's client, which sends the path as is; fails after `timeoutMs`. */
export function rawRequest(baseUrl: string, request: RawRequest, timeoutMs = 30_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: hostname,
        port,
        method: request.method,
        path: request.path,
        // A declared length: without it node sends a GET or DELETE body as stray bytes after the request.
        headers:
          request.body === undefined
            ? request.headers
            : { 'content-length': String(Buffer.byteLength(request.body)), ...request.headers },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            json: parseJson(text),
            ms: Date.now() - started,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy(new Error(`no answer within ${timeoutMs} ms: ${request.method} ${request.path.slice(0, 200)}`));
    }, timeoutMs);
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (request.body !== undefined) outgoing.write(request.body);
    outgoing.end();
  });
}

/**
 * Bytes written on a bare TCP socket, then our side closed (for requests node's client refuses to
 * send: bare line feeds, header folding, smuggling attempts). Answers the first response the
 * server wrote, and how many responses it wrote in all before closing. A list of pieces is
 * written one at a time, a millisecond apart, as a slow network delivers them. With `readLast`,
 * nothing is read until everything is sent (a client busy sending a large request): a server
 * that closes the connection while data is still arriving makes it fail with a reset.
 */
export function rawSocket(
  baseUrl: string,
  bytes: string | Buffer | (string | Buffer)[],
  timeoutMs = 30_000,
  { readLast = false }: { readLast?: boolean } = {},
): Promise<RawAnswer & { responses: number }> {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      const responses = raw.match(/HTTP\/1\.[01] \d{3} /g)?.length ?? 0;
      resolve({ ...parseAnswer(raw), responses, ms: Date.now() - started });
    });
    if (readLast) {
      socket.pause();
      socket.once('finish', () => socket.resume());
    }
    void writePieces(socket, Array.isArray(bytes) ? bytes : [bytes]);
  });
}

async function writePieces(socket: net.Socket, pieces: (string | Buffer)[]): Promise<void> {
  for (const [index, piece] of pieces.entries()) {
    if (socket.destroyed) return;
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    socket.write(piece);
  }
  socket.end();
}

function parseAnswer(raw: string): Omit<RawAnswer, 'ms'> {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: http.IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body =
    end < 0
      ? ''
      : Buffer.from(raw.slice(end + 4), 'latin1')
          .subarray(0, length)
          .toString('utf8');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  return { status, headers, text: body, json: parseJson(body) };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
