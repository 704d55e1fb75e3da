import { Catch, HttpException } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catalogueError, errorCatalogue, oauthError } from '@sesame/contracts';
import type { AppError, ErrorCode } from '@sesame/contracts';
import type { Logger } from '@sesame/platform';
import { ApiError, errorAnswer } from './api-error';
import type { ErrorStyle } from './api-error';

export const scimContentType = 'application/scim+json; charset=utf-8';
export const scimPathPrefix = '/scim/';

/**
 * The error shape of a request: its operation's, as its route declares it; SCIM for any path
 * under the SCIM prefix (unknown SCIM routes and bodies that fail to parse included).
 */
export function errorStyleOf(request: FastifyRequest): ErrorStyle {
  const declared = (request.routeOptions.config as { errorStyle?: ErrorStyle } | undefined)?.errorStyle;
  if (declared) return declared;
  return request.url.startsWith(scimPathPrefix) ? 'scim' : 'api';
}

const statusCodes: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'resource_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/**
 * Every error the gateway answers goes out in one of the documented shapes: unknown routes,
 * malformed bodies, oversized bodies and unexpected failures included. A 500 is logged with
 * its correlation id and answers only 'Internal Server Error'.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly docsUrl: string,
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const style = errorStyleOf(request);
    const answer = errorAnswer(this.toAppError(exception, request), this.docsUrl, style);
    if (answer.status === 401) void reply.header('www-authenticate', challengeOf(style));
    if (exception instanceof ApiError)
      for (const [name, value] of Object.entries(exception.headers)) void reply.header(name, value);
    const contentType = style === 'scim' ? scimContentType : 'application/json; charset=utf-8';
    void reply.status(answer.status).header('content-type', contentType).send(answer.body);
  }

  private toAppError(exception: unknown, request: FastifyRequest): AppError {
    const error = this.appErrorOf(exception, request);
    // The token endpoint answers malformed requests in the OAuth shape (RFC 6749 section 5.2).
    const style = (request.routeOptions?.config as { errorStyle?: string } | undefined)?.errorStyle;
    if (style === 'oauth' && error.kind === 'error' && error.code === 'bad_request')
      return oauthError('invalid_request', error.message ?? errorCatalogue.bad_request.message);
    return error;
  }

  private appErrorOf(exception: unknown, request: FastifyRequest): AppError {
    if (exception instanceof ApiError) return exception.error;
    const status =
      exception instanceof HttpException ? exception.getStatus() : ((exception as { statusCode?: number })?.statusCode ?? 500);
    const code = statusCodes[status];
    if (code === 'bad_request') return catalogueError(code, badRequestMessage(exception));
    if (code) return catalogueError(code);
    this.logger.error({ err: exception, correlationId: request.id, url: request.url }, 'unhandled error');
    return catalogueError('internal_server_error');
  }
}

/**
 * The authentication scheme a 401 asks for: the token endpoint authenticates clients with HTTP
 * Basic (RFC 6749 section 5.2: a client that tried it gets the Basic challenge back); every
 * other operation expects a Bearer token.
 */
const challengeOf = (style: ErrorStyle): string => (style === 'oauth' ? 'Basic realm="sesame", charset="UTF-8"' : 'Bearer');

function badRequestMessage(exception: unknown): string {
  const message = String((exception as Error)?.message ?? '');
  if (/JSON/i.test(message)) return 'Malformed JSON body';
  if (/empty/i.test(message)) return 'The request body is empty but its content type requires one';
  return 'Malformed request';
}
