import { actorOf } from './actor';

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
