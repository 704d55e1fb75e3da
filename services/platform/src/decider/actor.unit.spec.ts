import { actingFor, actorOf, requestActor, systemActor } from './actor';

describe('actorOf', () => {
  it('answers a structured actor as it was recorded', () => {
    const actor = { type: 'directory_sync' as const, id: 'dir-1', ip: '10.0.0.1' };
    expect(actorOf({ actor })).toEqual(actor);
  });

  it('reads an older event’s client id as an API key and a service’s name as Sesame itself', () => {
    expect(actorOf({ actor: 'client-1' })).toEqual({ type: 'api_key', id: 'client-1' });
    expect(actorOf({ actor: 'webhooks:organizations' })).toEqual({ type: 'system', id: 'webhooks:organizations' });
    expect(actorOf({ actor: 'cli' })).toEqual({ type: 'system', id: 'cli' });
    expect(actorOf({ actor: 'scim-activity' })).toEqual({ type: 'system', id: 'scim-activity' });
  });

  it('answers nothing for an event recorded without an actor', () => {
    expect(actorOf({})).toBeUndefined();
  });
});

describe('requestActor', () => {
  const client = { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11)' };

  it('names the API key of the request, with the address and user agent the gateway saw', () => {
    expect(requestActor({ clientId: 'client-1', client })).toEqual({
      type: 'api_key',
      id: 'client-1',
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11)',
    });
  });

  it('prefers the actor the caller named to the API key, and the one the handler knows to both', () => {
    const meta = { clientId: 'client-1', client, actor: { type: 'it_admin' as const, id: 'admin-1' } };
    expect(requestActor(meta)).toEqual({ type: 'it_admin', id: 'admin-1', ip: client.ip, user_agent: client.userAgent });
    expect(requestActor(meta, { type: 'user', id: 'user-1' })).toEqual({
      type: 'user',
      id: 'user-1',
      ip: client.ip,
      user_agent: client.userAgent,
    });
  });

  it('leaves out what the request did not tell', () => {
    expect(requestActor({ clientId: 'client-1' })).toEqual({ type: 'api_key', id: 'client-1' });
    expect(requestActor({ clientId: 'client-1', client: { ip: '10.0.0.1' } })).toEqual({
      type: 'api_key',
      id: 'client-1',
      ip: '10.0.0.1',
    });
  });

  it('answers no one for a public request before anyone is known', () => {
    expect(requestActor({ client })).toBeUndefined();
  });

  it('keeps only who and from where of an actor handed to it', () => {
    const handed = { type: 'directory_sync' as const, id: 'dir-1', extra: 'secret' } as unknown as Parameters<
      typeof requestActor
    >[1];
    expect(requestActor({}, handed)).toEqual({ type: 'directory_sync', id: 'dir-1' });
  });

  it('names Sesame itself for a reactor, the CLI or a scheduled job', () => {
    expect(requestActor({}, systemActor('identity:organization-cascade'))).toEqual({
      type: 'system',
      id: 'identity:organization-cascade',
    });
  });
});

describe('actingFor', () => {
  it('makes the request act for someone from here on, keeping the rest of it', () => {
    const context = { meta: { correlationId: 'c-1', clientId: 'client-1', client: { ip: '10.0.0.1' } }, other: 1 };
    const asUser = actingFor(context, { type: 'user', id: 'user-1' });
    expect(asUser).toEqual({ ...context, meta: { ...context.meta, actor: { type: 'user', id: 'user-1' } } });
    expect(requestActor(asUser.meta)).toEqual({ type: 'user', id: 'user-1', ip: '10.0.0.1' });
    expect(context.meta).not.toHaveProperty('actor');
  });
});
