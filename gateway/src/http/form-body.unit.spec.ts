import { indexArraysOfObjects, isNestedTooDeep, parseBrackets } from './form-body';

describe('parseBrackets (forms and query strings)', () => {
  it('reads bracket notation as the client SDKs send it', () => {
    expect(parseBrackets('profile[given_name]=Ada&allowed_email_domains[]=acme.com&q[environments_status_in][]=up')).toEqual({
      profile: { given_name: 'Ada' },
      allowed_email_domains: ['acme.com'],
      q: { environments_status_in: ['up'] },
    });
  });

  // Regression: with strictDepth, qs threw a RangeError from inside the router and the form body
  // parser, an uncaught exception that stopped the gateway on one unauthenticated request.
  it.each([
    ['brackets nested past the depth limit', `a${'[b]'.repeat(50)}=1`],
    ['six levels under a documented field', 'profile[a][b][c][d][e][f]=1'],
    ['thousands of unclosed brackets', `name[${'['.repeat(1_000)}=1`],
    ['malformed percent escapes', 'name=%E0%A4%A&email=%ZZ&%=%'],
    ['prototype keys', '__proto__[polluted]=1&constructor[prototype][polluted]=1'],
    ['a huge array index', 'allowed_email_domains[999999999]=a.com'],
  ])('never throws on %s', (_case, text) => {
    expect(() => parseBrackets(text)).not.toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // Regression (issue 16): brackets past the limit used to become one literal key, which a
  // free-form field accepted; now the whole form or query string is refused (the route answers 400).
  it('reads five levels of brackets, and marks anything deeper as nested too deep', () => {
    expect(parseBrackets('a[b][c][d][e][f]=1')).toEqual({ a: { b: { c: { d: { e: { f: '1' } } } } } });
    expect(isNestedTooDeep(parseBrackets('a[b][c][d][e][f]=1'))).toBe(false);
    for (const text of ['a[b][c][d][e][f][g]=1', `q${'[a]'.repeat(2_000)}=1`, 'ok=1&p[a][b][c][d][e][]=1'])
      expect(isNestedTooDeep(parseBrackets(text))).toBe(true);
    expect(isNestedTooDeep({})).toBe(false);
    expect(isNestedTooDeep(undefined)).toBe(false);
  });

  it('drops fields past the parameter limit and turns huge array indexes into object keys', () => {
    const many = Array.from({ length: 3_000 }, (_, i) => `f${i}=${i}`).join('&');
    expect(Object.keys(parseBrackets(many))).toHaveLength(1_000);
    expect(parseBrackets('allowed_email_domains[999999999]=a.com')).toEqual({ allowed_email_domains: { 999999999: 'a.com' } });
  });
});

describe('arrays of objects sent without an index (Rails, Rack and the SDKs)', () => {
  it('starts a new element when a field repeats', () => {
    expect(
      parseBrackets(
        'attributes[][name]=a&attributes[][mapped_name]=email&attributes[][name]=b&attributes[][mapped_name]=phone_number',
      ),
    ).toEqual({
      attributes: [
        { name: 'a', mapped_name: 'email' },
        { name: 'b', mapped_name: 'phone_number' },
      ],
    });
  });

  it('reads percent-encoded brackets and keeps values, other fields and plain arrays as they are', () => {
    expect(
      parseBrackets('attributes%5B%5D%5Bname%5D=a%26b&name=x+y&domains[]=a.com&domains[]=b.com&attributes%5B%5D%5Bname%5D=c'),
    ).toEqual({ attributes: [{ name: 'a&b' }, { name: 'c' }], name: 'x y', domains: ['a.com', 'b.com'] });
  });

  it('numbers each list on its own, and nested fields of an element stay in it', () => {
    expect(parseBrackets('a[][x]=1&b[][x]=2&a[][y][z]=3&a[][x]=4')).toEqual({
      a: [{ x: '1', y: { z: '3' } }, { x: '4' }],
      b: [{ x: '2' }],
    });
  });

  it('leaves text without such arrays untouched, and never throws on malformed escapes', () => {
    expect(indexArraysOfObjects('name=Ada&domains[]=a.com')).toBe('name=Ada&domains[]=a.com');
    expect(() => indexArraysOfObjects('a[][x]=%ZZ&%E0%A4%A[][x]=1&[][x]=2')).not.toThrow();
  });
});
