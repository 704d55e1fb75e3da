import { catalogueError, oauthError } from '@sesame/contracts';
import type { Operation, RpcInput, z } from '@sesame/contracts';
import { fieldErrorsFromZod } from '@sesame/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { withBasicCredentials } from '../http/basic-credentials';
import { formTooDeepMessage, isNestedTooDeep } from '../http/form-body';
import { withoutTypeMarkers } from '../http/type-markers';

/**
 * Validates a request against its operation's contract: path parameters, query and body each
 * with their schema. All problems are answered together as 422 field errors (the OAuth
 * endpoint answers `invalid_request` instead).
 */
export function operationInput(operation: Operation, request: FastifyRequest): RpcInput {
  const { params, query, body } = operation.request;
  const fields: Record<string, string[]> = {};
  const parse = (schema: z.ZodType | undefined, value: unknown) => {
    if (!schema) return {};
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    Object.assign(fields, fieldErrorsFromZod(parsed.error));
    return undefined;
  };

  // The router cannot answer from its query string parser: it marks brackets nested too deep.
  if (isNestedTooDeep(request.query)) throw new ApiError(catalogueError('bad_request', formTooDeepMessage));
  let rawBody: unknown = operation.errorStyle === 'scim' ? (request.body ?? {}) : withoutTypeMarkers(request.body ?? {});
  if (operation.errorStyle === 'oauth') rawBody = withBasicCredentials(rawBody, request.headers.authorization);
  if (body && (typeof rawBody !== 'object' || Array.isArray(rawBody))) {
    fields.base = ['must be a JSON object or form fields'];
    rawBody = undefined;
  }
  const input = {
    params: parse(params, request.params ?? {}),
    query: parse(query, request.query ?? {}),
    body: rawBody === undefined ? undefined : parse(body, rawBody),
  };
  if (Object.keys(fields).length > 0) {
    if (operation.errorStyle === 'oauth')
      throw new ApiError(
        oauthError(
          'invalid_request',
          Object.entries(fields)
            .map(([field, messages]) => `${field} ${messages.join(', ')}`)
            .join('; '),
        ),
      );
    throw new ApiError({ kind: 'fields', fields });
  }
  return input;
}
