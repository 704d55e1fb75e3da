/**
 * Read-your-writes across replicas. A write answers `Sesame-Consistency-Token`: the service that
 * stored it and the position of its event store the write reached. A client that sends the token
 * back on a read (same header) is answered by a replica whose read models have applied that
 * position (it waits, bounded, for its projections to get there). Opaque to clients.
 */
export const consistencyTokenHeader = 'sesame-consistency-token';

export interface ConsistencyPoint {
  service: string;
  /** A position of the service's event store, in decimal. */
  position: string;
}

export function encodeConsistencyToken(point: ConsistencyPoint): string {
  return Buffer.from(`${point.service}:${point.position}`).toString('base64url');
}

/** The point a token names, or null when it is not one Sesame answered. */
export function decodeConsistencyToken(token: string): ConsistencyPoint | null {
  if (!/^[A-Za-z0-9_-]{1,96}$/.test(token)) return null;
  const match = /^([a-z][a-z-]{0,31}):(\d{1,20})$/.exec(Buffer.from(token, 'base64url').toString());
  return match ? { service: match[1] as string, position: match[2] as string } : null;
}
