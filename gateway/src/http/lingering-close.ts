import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';

/** How long a refused body is still read (and thrown away) before the 413 is sent anyway. */
const lingerMs = 5_000;

/**
 * A body over the limit answers 413 and closes the connection. Closing a socket while the client is
 * still sending makes the kernel answer with a reset, which on most clients wipes the 413 before it
 * is read: the client sees EPIPE or ECONNRESET and no answer. So the rest of the body is first read
 * and thrown away (nginx's lingering close), for at most `lingerMs`, and the 413 is sent after it.
 */
export function lingerOnRefusedBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply) => {
    const body = request.raw;
    if (reply.statusCode !== 413 || body.readableEnded || body.destroyed) return;
    const timeout = AbortSignal.timeout(lingerMs);
    body.resume();
    await once(body, 'end', { signal: timeout }).catch(() => undefined);
  });
}
