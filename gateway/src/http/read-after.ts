import { catalogueError, consistencyTokenHeader, decodeConsistencyToken } from '@sesame/contracts';
import type { ConsistencyPoint } from '@sesame/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './api-error';

/** The write a request asks to read after (`Sesame-Consistency-Token`), if it names one; a token Sesame did not answer is refused. */
export function readAfterOf(headers: IncomingHttpHeaders): ConsistencyPoint | undefined {
  const token = headers[consistencyTokenHeader];
  if (token === undefined) return undefined;
  const point = typeof token === 'string' ? decodeConsistencyToken(token) : null;
  if (!point) throw new ApiError(catalogueError('invalid_consistency_token'));
  return point;
}
