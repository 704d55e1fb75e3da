import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catalogueError } from '@sesame/contracts';
import type { AppError } from '@sesame/contracts';
import { errorAnswer } from './api-error';

/** How long the rest of a refused request is still read (and thrown away) before the connection is cut. */
const lingerMs = 5_000;

/** Per connection: whether a line break came before the chunk being parsed, since the current request began. */
interface HeadProgress {
  before: boolean;
  after: boolean;
}
const heads = new WeakMap<Socket, HeadProgress>();

/**
 * Follows each connection's bytes far enough to tell an over-long request line (414) from
 * over-long headers (431): node's parser refuses both alike once the head passes its limit.
 * Listening to a socket's data hands its parsing from node's native stream to JavaScript.
 */
export function trackRequestHeads(server: Server): void {
  server.on('connection', (socket: Socket) => {
    const head: HeadProgress = { before: false, after: false };
    heads.set(socket, head);
    socket.prependListener('data', (chunk: Buffer) => {
      head.before = head.after;
      if (!head.after && chunk.includes(0x0a)) head.after = true;
    });
  });
  server.on('request', (request: IncomingMessage) => {
    const head = heads.get(request.socket);
    if (head) head.before = head.after = false;
  });
}

type ParseError = Error & { code?: string; rawPacket?: unknown; bytesParsed?: number };

/** Whether the request line had ended when the head went over the limit (its line break came before the error). */
function requestLineEnded(error: ParseError, socket: Socket): boolean {
  if (heads.get(socket)?.before) return true;
  if (!Buffer.isBuffer(error.rawPacket)) return true;
  return error.rawPacket.subarray(0, error.bytesParsed ?? error.rawPacket.length).includes(0x0a);
}

function appErrorOf(error: ParseError, socket: Socket): AppError {
  if (error.code !== 'HPE_HEADER_OVERFLOW') return catalogueError('bad_request', 'Malformed HTTP request');
  return requestLineEnded(error, socket) ? catalogueError('headers_too_large') : catalogueError('uri_too_long');
}

/**
 * Requests that fail before any route runs still answer in the documented shape, with a
 * correlation id: bytes that are not HTTP, and a request line (414) or headers (431) over the
 * limit (fastify's client error handler); URLs the router refuses (a malformed escape, a path
 * parameter over `maxParamLength`). The answer is sent, then the rest of the request is read and
 * thrown away for at most `lingerMs` before the connection closes: closing while the client is
 * still sending makes the kernel answer with a reset, which wipes the answer before it is read
 * (nginx's lingering close; the same as for bodies over the limit, `lingering-close.ts`).
 */
export function clientErrorHandler(docsUrl: string) {
  const answered = new WeakSet<Socket>();
  return (error: ParseError, socket: Socket): void => {
    // node's parser reports each further chunk of a refused request again.
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return void socket.destroy();
    const answer = errorAnswer(appErrorOf(error, socket), docsUrl);
    const body = JSON.stringify(answer.body);
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-correlation-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
    );
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

export function frameworkErrors(docsUrl: string) {
  return (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : 'Malformed URL';
    const answer = errorAnswer(catalogueError('bad_request', message), docsUrl);
    void reply
      .status(answer.status)
      .header('content-type', 'application/json; charset=utf-8')
      .header('x-correlation-id', request.id)
      .send(answer.body);
  };
}
