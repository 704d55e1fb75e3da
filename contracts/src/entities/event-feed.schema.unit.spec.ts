import { codesOfPattern, decodeEventFeedCursor, encodeEventFeedCursor } from './event-feed.schema';

describe('the cursor of the events feed', () => {
  it('reads back the positions it encodes, as base64url', () => {
    const cursor = encodeEventFeedCursor({ identity: [42, 0], 'auth-methods': [7, 3] });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeEventFeedCursor(cursor)).toEqual({ identity: [42, 0], 'auth-methods': [7, 3] });
    expect(decodeEventFeedCursor(encodeEventFeedCursor({}))).toEqual({});
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('{identity').toString('base64url')],
    ['an unknown stream', Buffer.from('{"gateway":[1,0]}').toString('base64url')],
    ['a negative sequence', Buffer.from('{"identity":[-1,0]}').toString('base64url')],
    ['a fractional index', Buffer.from('{"identity":[1,0.5]}').toString('base64url')],
    ['an array', Buffer.from('[1,2]').toString('base64url')],
    ['empty', ''],
  ])('refuses %s', (_case, cursor) => expect(decodeEventFeedCursor(cursor)).toBeNull());
});

describe('event code patterns', () => {
  it('a code names itself; `prefix.*` every code under the prefix; anything else nothing', () => {
    expect(codesOfPattern('user.created')).toEqual(['user.created']);
    expect(codesOfPattern('user.*')).toEqual(expect.arrayContaining(['user.created', 'user.updated', 'user.deleted']));
    expect(codesOfPattern('user.*').every((code) => code.startsWith('user.'))).toBe(true);
    expect(codesOfPattern('user.exploded')).toEqual([]);
    expect(codesOfPattern('*')).toEqual([]);
    expect(codesOfPattern('.*')).toEqual([]);
    expect(codesOfPattern('nothing.*')).toEqual([]);
  });
});
