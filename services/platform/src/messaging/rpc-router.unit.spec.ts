import { defineOperation, z } from '@sesame/contracts';
import { fail } from '../decider/decider';
import { createLogger } from '../logging/logger';
import { decodeConsistencyToken } from '@sesame/contracts';
import { noteAppend } from '../event-store/append-scope';
import { ok } from './replies';
import { RpcRouter } from './rpc-router';

const operation = defineOperation({
  operationId: 'testThing',
  method: 'post',
  path: '/things/{id}',
  tag: 'Groups',
  summary: 'test',
  auth: 'api_key',
  scope: 'users:write',
  subject: 'test.things.create',
  request: { params: z.object({ id: z.string() }), body: z.object({ name: z.string().min(1) }) },
  response: { status: 201, description: 'thing', schema: z.object({ id: z.string(), name: z.string() }) },
  errors: [],
  examples: {
    request: { name: 'Lamp' },
    response: { id: 't1', name: 'Lamp' },
    error: { status: 422, body: { errors: { name: ['is required'] } } },
  },
});
const meta = { correlationId: 'c1' };

describe('RpcRouter', () => {
  const router = new RpcRouter(createLogger('test', 'silent'));
  router.operation(operation, async ({ params, body }) => {
    if (body.name === 'refused') fail({ kind: 'error', code: 'resource_not_found' });
    if (body.name === 'crash') throw new Error('database on fire');
    return ok({ id: params.id, name: body.name }, 201);
  });

  it('validates input against the operation and calls the handler', async () => {
    expect(
      await router.dispatch('test.things.create', { meta, input: { params: { id: 'x' }, query: {}, body: { name: 'a' } } }),
    ).toEqual({
      ok: true,
      status: 201,
      body: { id: 'x', name: 'a' },
    });
  });

  it('answers field errors for invalid input without calling the handler', async () => {
    expect(await router.dispatch('test.things.create', { meta, input: { params: { id: 'x' }, query: {}, body: {} } })).toEqual({
      ok: false,
      error: { kind: 'fields', fields: { 'body.name': ["can't be blank"] } },
    });
  });

  it('turns a DomainError into its error reply, and an unexpected error into a 500', async () => {
    expect(
      await router.dispatch('test.things.create', { meta, input: { params: { id: 'x' }, query: {}, body: { name: 'refused' } } }),
    ).toEqual({
      ok: false,
      error: { kind: 'error', code: 'resource_not_found' },
    });
    expect(
      await router.dispatch('test.things.create', { meta, input: { params: { id: 'x' }, query: {}, body: { name: 'crash' } } }),
    ).toEqual({
      ok: false,
      error: { kind: 'error', code: 'internal_server_error' },
    });
  });

  it('answers not found for a subject it does not serve, and refuses a second handler for one', async () => {
    expect(await router.dispatch('test.unknown', { meta, input: {} })).toEqual({
      ok: false,
      error: { kind: 'error', code: 'resource_not_found' },
    });
    expect(() => router.on('test.things.create', async () => ok({}))).toThrow(/already handled/);
  });

  it('waits for requests in flight before saying it is idle', async () => {
    const slow = new RpcRouter(createLogger('test', 'silent'));
    let finished = false;
    slow.on('test.slow', async () => {
      await new Promise((r) => setTimeout(r, 50));
      finished = true;
      return ok({});
    });
    const pending = slow.dispatch('test.slow', { meta, input: {} });
    await slow.idle(1_000);
    expect(finished).toBe(true);
    await pending;
  });
});

describe('RpcRouter: read-your-writes', () => {
  const waitedFor: bigint[] = [];
  const router = new RpcRouter(createLogger('test', 'silent'), undefined, {
    service: 'identity',
    reached: async (position) => void waitedFor.push(position),
  });
  router.on('test.write', async () => {
    noteAppend(41n);
    await new Promise((resolve) => setImmediate(resolve));
    noteAppend(42n);
    noteAppend(40n);
    return ok({ written: true }, 201);
  });
  router.on('test.refused', async () => {
    noteAppend(43n);
    fail({ kind: 'error', code: 'resource_not_found' });
  });
  router.on('test.read', async () => ok({ read: true }));

  beforeEach(() => waitedFor.splice(0));

  it('names the furthest position a request’s appends reached in its reply’s consistency token', async () => {
    const reply = await router.dispatch('test.write', { meta, input: {} });
    const token = (reply as { headers?: Record<string, string> }).headers?.['sesame-consistency-token'] ?? '';
    expect(decodeConsistencyToken(token)).toEqual({ service: 'identity', position: '42' });
  });

  it('gives no token to a read or to a refusal', async () => {
    expect(await router.dispatch('test.read', { meta, input: {} })).toEqual({ ok: true, status: 200, body: { read: true } });
    expect(await router.dispatch('test.refused', { meta, input: {} })).toEqual({
      ok: false,
      error: { kind: 'error', code: 'resource_not_found' },
    });
  });

  it('waits for the position a token of this service names before answering, and not for another service’s', async () => {
    await router.dispatch('test.read', { meta: { ...meta, readAfter: { service: 'identity', position: '42' } }, input: {} });
    await router.dispatch('test.read', { meta: { ...meta, readAfter: { service: 'webhooks', position: '7' } }, input: {} });
    expect(waitedFor).toEqual([42n]);
  });
});
