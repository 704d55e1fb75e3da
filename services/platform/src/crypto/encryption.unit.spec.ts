import { KeyRing } from './encryption';
import { hashSecret, randomSecret, safeEqual, verifySecret } from './secrets';

describe('KeyRing', () => {
  it('seals and opens, with a fresh IV each time', () => {
    const ring = new KeyRing(KeyRing.generateKeySpec('a'));
    const one = ring.seal('secret value');
    const two = ring.seal('secret value');
    expect(one).not.toBe(two);
    expect(one).toMatch(/^v1\.a\./);
    expect(ring.open(one)).toBe('secret value');
  });

  it('encrypts with the first key and still opens values sealed with an older one (rotation)', () => {
    const old = KeyRing.generateKeySpec('old');
    const sealedWithOld = new KeyRing(old).seal('x');
    const rotated = new KeyRing(`${KeyRing.generateKeySpec('new')},${old}`);
    expect(rotated.open(sealedWithOld)).toBe('x');
    expect(rotated.seal('y')).toMatch(/^v1\.new\./);
  });

  it('refuses a tampered value and an unknown key', () => {
    const ring = new KeyRing(KeyRing.generateKeySpec('a'));
    const sealed = ring.seal('x');
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => ring.open(parts.join('.'))).toThrow();
    expect(() => new KeyRing(KeyRing.generateKeySpec('b')).open(sealed)).toThrow(/unknown format or key a/);
  });

  it.each(['', 'nokey', 'a:short', 'bad kid:' + Buffer.alloc(32).toString('base64')])('refuses the key ring %j', (spec) =>
    expect(() => new KeyRing(spec)).toThrow(),
  );
});

describe('secrets', () => {
  it('hashes and verifies in constant time', () => {
    const secret = randomSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifySecret(secret, hashSecret(secret))).toBe(true);
    expect(verifySecret(`${secret}x`, hashSecret(secret))).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
