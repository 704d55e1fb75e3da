import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { catalogueError } from '@sesame/contracts';
import { ApiError } from './api-error';

/** Levels of objects and arrays a JSON body may nest (real bodies nest a handful; free-form fields at most 10 more). */
export const maxJsonBodyDepth = 32;

export const jsonTooDeepMessage = `JSON body nested too deep (at most ${maxJsonBodyDepth} levels)`;

/**
 * Whether the JSON text nests objects and arrays deeper than `limit`, read in one pass over the
 * text before it is parsed: a body nested thousands of levels deep is refused before anything
 * builds, copies or serializes it (a copy of it overflows the stack; MongoDB refuses it).
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/**
 * JSON bodies (`application/json`, and SCIM's `application/scim+json`, also empty on a DELETE):
 * fastify's parser (prototype poisoning refused), after the depth check; too deep answers 400 in
 * the route's error shape.
 */
export function registerJsonBodies(fastify: FastifyInstance): void {
  const json = fastify.getDefaultJsonParser('error', 'error');
  const parse: FastifyBodyParser<string> = (request, body, done) => {
    if (jsonNestsDeeperThan(body, maxJsonBodyDepth)) return done(new ApiError(catalogueError('bad_request', jsonTooDeepMessage)));
    json(request, body, done);
  };
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  fastify.addContentTypeParser('application/scim+json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parse(request, body as string, done),
  );
}
