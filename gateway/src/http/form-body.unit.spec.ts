import { parseBrackets } from './form-body';

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

  it('keeps what lies past the depth limit as one literal key, which no schema accepts', () => {
    expect(parseBrackets('a[b][c][d][e][f][g][h]=1')).toEqual({ a: { b: { c: { d: { e: { f: { '[g][h]': '1' } } } } } } });
  });

  it('drops fields past the parameter limit and turns huge array indexes into object keys', () => {
    const many = Array.from({ length: 3_000 }, (_, i) => `f${i}=${i}`).join('&');
    expect(Object.keys(parseBrackets(many))).toHaveLength(1_000);
    expect(parseBrackets('allowed_email_domains[999999999]=a.com')).toEqual({ allowed_email_domains: { 999999999: 'a.com' } });
  });
});
