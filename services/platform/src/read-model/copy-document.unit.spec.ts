import { copyDocument } from './copy-document';

describe('copyDocument', () => {
  it('copies nested objects and arrays: changing the copy leaves the original as it was', () => {
    const original = { _id: 'a', user: { emails: ['x@example.com'], meta: { n: 1, on: true, none: null } }, list: [{ k: 'v' }] };
    const copy = copyDocument(original);
    expect(copy).toEqual(original);
    copy.user.emails.push('y@example.com');
    copy.user.meta.n = 2;
    (copy.list[0] as { k: string }).k = 'changed';
    expect(original).toEqual({
      _id: 'a',
      user: { emails: ['x@example.com'], meta: { n: 1, on: true, none: null } },
      list: [{ k: 'v' }],
    });
  });

  it('copies dates as dates, and other objects as structuredClone does', () => {
    const at = new Date('2026-11-27T10:00:00.000Z');
    const copy = copyDocument({ at, seen: new Map([['a', 1]]) });
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at).not.toBe(at);
    expect(copy.at.toISOString()).toBe(at.toISOString());
    expect(copy.seen).toEqual(new Map([['a', 1]]));
  });

  it('keeps an own __proto__ key an own property, never the prototype of the copy', () => {
    const parsed = JSON.parse('{"_id":"a","__proto__":{"admin":true}}') as Record<string, unknown>;
    const copy = copyDocument(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { admin?: unknown }).admin).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['_id', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ admin: true });
  });
});
