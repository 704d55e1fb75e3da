import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  hotp,
  matchTotpStep,
  otpauthUri,
  timeStep,
  totp,
} from './one-time-password';

const rfcSecret = Buffer.from('12345678901234567890', 'ascii');

describe('one-time passwords', () => {
  it('computes the HOTP values of RFC 4226 appendix D', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(rfcSecret, counter))).toEqual(expected);
  });

  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('computes the SHA-1 TOTP of RFC 6238 appendix B at %i s', (seconds, code) => {
    expect(totp(rfcSecret, seconds * 1000, 30, 8)).toBe(code);
  });

  it('encodes and decodes base32 as RFC 4648 section 10', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(`${encoded}======`).toString()).toBe(plain);
    }
    expect(() => base32Decode('MZ1')).toThrow();
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it('matches a code one step either side of now, and nothing else', () => {
    const now = 1_700_000_000_000;
    const step = timeStep(now, 30);
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step), now, 30)).toBe(step);
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step - 1), now, 30)).toBe(step - 1);
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step + 1), now, 30)).toBe(step + 1);
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step - 2), now, 30)).toBeNull();
    expect(matchTotpStep(rfcSecret, 'abcdef', now, 30)).toBeNull();
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, timeStep(now, 600)), now, 600)).toBe(timeStep(now, 600));
  });

  it('writes the otpauth URI authenticator apps scan', () => {
    expect(otpauthUri({ issuer: 'Hooli Inc', account: 'gavin@hooli.com', secret: 'JBSWY3DPEHPK3PXP', periodSeconds: 30 })).toBe(
      'otpauth://totp/Hooli%20Inc:gavin%40hooli.com?secret=JBSWY3DPEHPK3PXP&issuer=Hooli%20Inc&algorithm=SHA1&digits=6&period=30',
    );
  });
});
