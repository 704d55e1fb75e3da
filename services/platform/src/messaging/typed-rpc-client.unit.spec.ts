import { catalogueError, fieldError, getUser, refusedField, subjects } from '@sesame/contracts';
import type { RpcReply, RpcRequest } from '@sesame/contracts';
import { DomainError, fail } from '../decider/decider';
import { createLogger } from '../logging/logger';
import { ok } from './replies';
import { RpcRouter } from './rpc-router';
import { RpcUnavailableError } from './rpc-unavailable';
import { RpcRefusal, TypedRpcClient } from './typed-rpc-client';

const scope = { organization_domain: 'acme', environment: 'sandbox' } as const;
const meta = { correlationId: 'c1' };
/** A user as identity answers it (the API reference's example). */
const user = getUser.examples.response as { id: string; email: string };

/** The client over a real router (what the callee runs), counting what reaches it. */
function setup(answer: (input: unknown) => Promise<RpcReply>) {
  const router = new RpcRouter(createLogger('test', 'silent'));
  const received: RpcRequest[] = [];
  router.on(subjects.identity.users.findByEmail, answer);
  router.on(subjects.identity.users.provision, answer);
  const transport = {
    request: async <T>(subject: string, request: RpcRequest) => {
      received.push(request);
      return (await router.dispatch(subject, request)) as RpcReply<T>;
    },
  };
  return { client: new TypedRpcClient(transport), received };
}

describe('TypedRpcClient', () => {
  it('sends the input with the meta and answers the unwrapped body', async () => {
    const { client, received } = setup(async () => ok({ user: null }));
    expect(await client.call(subjects.identity.users.findByEmail, { ...scope, email: 'ada@acme.test' }, meta)).toEqual({
      user: null,
    });
    expect(received).toEqual([{ meta, input: { ...scope, email: 'ada@acme.test' } }]);
  });

  it('refuses an input outside the contract with the field errors the callee would answer, sending nothing', async () => {
    const { client, received } = setup(async () => ok({ user: null }));
    const refusal = await client
      .call(subjects.identity.users.findByEmail, { ...scope, email: '' }, meta)
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RpcRefusal);
    expect((refusal as RpcRefusal).error).toEqual({ kind: 'fields', fields: { email: ["can't be blank"] } });
    expect(received).toEqual([]);
  });

  it('throws an answer outside the response contract as a bug, not a refusal', async () => {
    const { client } = setup(async () => ok({ user: { id: 'not a user' } }));
    const error = await client.call(subjects.identity.users.findByEmail, { ...scope, email: 'a@b.co' }, meta).catch((e) => e);
    expect(error).not.toBeInstanceOf(DomainError);
    expect(String(error)).toContain(subjects.identity.users.findByEmail);
  });

  it('answers the parsed body of a valid answer', async () => {
    const { client } = setup(async () => ok({ user }));
    const answer = await client.call(subjects.identity.users.findByEmail, { ...scope, email: user.email }, meta);
    expect(answer.user?.id).toBe(user.id);
  });

  describe('refusals carry a stable reason code', () => {
    const provision = { ...scope, email: 'ada@acme.test', source: 'scim' } as const;
    const reasonOfRefusal = async (refusal: Parameters<typeof fail>[0]) => {
      const { client } = setup(async () => fail(refusal));
      const error = await client.call(subjects.identity.users.provision, provision, meta).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcRefusal);
      expect((error as RpcRefusal).error).toEqual(refusal);
      return (error as RpcRefusal).reason;
    };

    it('`taken` for a uniqueness refusal', async () =>
      expect(await reasonOfRefusal(refusedField('email', 'taken'))).toBe('taken'));

    it('none from a field error without one, even with the message of `taken` (never the text)', async () =>
      expect(await reasonOfRefusal(fieldError('email', 'has already been taken'))).toBeUndefined());

    it('the catalogue code of an error', async () =>
      expect(await reasonOfRefusal(catalogueError('user_limit_reached'))).toBe('user_limit_reached'));

    it('none for another field error', async () =>
      expect(await reasonOfRefusal(fieldError('email', 'invalid_format'))).toBeUndefined());
  });

  it('is 503 service_unavailable when nobody answers; other transport failures go through', async () => {
    const silent = new TypedRpcClient({
      request: () => Promise.reject(new RpcUnavailableError('x', new Error('TIMEOUT'))),
    });
    const error = await silent.call(subjects.identity.users.findByEmail, { ...scope, email: 'a@b.co' }, meta).catch((e) => e);
    expect(error).toMatchObject({ reason: 'service_unavailable', error: catalogueError('service_unavailable') });
    const broken = new TypedRpcClient({ request: () => Promise.reject(new TypeError('bug')) });
    await expect(broken.call(subjects.identity.users.findByEmail, { ...scope, email: 'a@b.co' }, meta)).rejects.toThrow(
      TypeError,
    );
  });
});
