import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { ConnectionOptions } from 'nats';
import { testPrefix } from '@sesame/platform/testing';
import { freePort } from '../../test/support/free-port';

/** A JSON answer of about 1 KB, the size of a user as the gateway answers it. */
const answer = JSON.stringify({ id: 'u', email: 'ada@bench.example', padding: 'x'.repeat(940) });

const spawnScript = (script: string): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ['-e', script], { cwd: __dirname, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`raw hop process exited with ${code}`)));
  });
};

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
};

/**
 * The raw hop, the floor of a gateway read: a bare Fastify route that asks a NATS responder with
 * one nats.js request and answers its ~1 KB JSON, each in its own process as the gateway and a
 * service are, over the same NATS server. Answers its URL and process ids (for CPU accounting).
 */
export async function startRawHop(
  nats: ConnectionOptions,
): Promise<{ url: string; processIds(): Record<string, number>; stop(): Promise<void> }> {
  const subject = `${testPrefix('hop')}.raw.hop`;
  const options = JSON.stringify({ servers: nats.servers, user: nats.user, pass: nats.pass });
  const responder = await spawnScript(`
    const { connect } = require('nats');
    const body = new TextEncoder().encode(${JSON.stringify(answer)});
    connect(${options}).then(async (nc) => {
      const sub = nc.subscribe(${JSON.stringify(subject)}, { queue: 'hop' });
      await nc.flush();
      console.log('ready');
      for await (const message of sub) message.respond(body);
    });`);
  const port = await freePort();
  const gateway = await spawnScript(`
    const { connect } = require('nats');
    const app = require('fastify')();
    const request = new TextEncoder().encode(JSON.stringify({ meta: { correlationId: 'c' }, input: { id: 'u' } }));
    connect(${options}).then(async (nc) => {
      app.get('/', async (_request, reply) => {
        const message = await nc.request(${JSON.stringify(subject)}, request, { timeout: 5000 });
        return reply.type('application/json').send(JSON.parse(new TextDecoder().decode(message.data)));
      });
      await app.listen({ port: ${port}, host: '127.0.0.1' });
      console.log('ready');
    });`);
  return {
    url: `http://127.0.0.1:${port}/`,
    processIds: () => ({ 'raw-hop gateway': gateway.pid as number, 'raw-hop responder': responder.pid as number }),
    stop: async () => {
      await stop(gateway);
      await stop(responder);
    },
  };
}
