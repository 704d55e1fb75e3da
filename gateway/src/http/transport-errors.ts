import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catalogueError } from '@sesame/contracts';
import { errorAnswer } from './api-error';

/**
 * Requests that fail before any route runs still answer in the documented shape, with a
 * correlation id: bytes that are not HTTP (fastify's client error handler), and URLs the router
 * refuses (a malformed escape, a path parameter over `maxParamLength`).
 */
export function clientErrorHandler(docsUrl: string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? errorAnswer(catalogueError('headers_too_large'), docsUrl)
        : errorAnswer(catalogueError('bad_request', 'Malformed HTTP request'), docsUrl);
    const body = JSON.stringify(answer.body);
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${answer.status} ${answer.status === 400 ? 'Bad Request' : 'Request Header Fields Too Large'}\r\n` +
          `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `x-correlation-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
      );
    socket.destroy(error);
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
