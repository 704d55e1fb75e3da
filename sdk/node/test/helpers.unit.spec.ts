import { createHmac, randomBytes } from 'node:crypto';
import { codeChallengeS256, createPkce, verifyWebhook, WebhookVerificationError } from '../src';

describe('verifyWebhook', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_1', code: 'user.created' });
  const now = 1_750_000_000_000;
  const sign = (key: string, id: string, timestamp: number, payload: string) =>
    `v1,${createHmac('sha256', Buffer.from(key.slice(6), 'base64'))
      .update(`${id}.${timestamp}.${payload}`)
      .digest('base64')}`;
  const headers = (signature: string, timestamp = now / 1000) => ({
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  });

  it('answers the event of a good signature, also among several (key rotation)', () => {
    expect(verifyWebhook(secret, body, headers(sign(secret, 'msg_1', now / 1000, body)), { now })).toEqual({
      id: 'evt_1',
      code: 'user.created',
    });
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const both = `${sign(other, 'msg_1', now / 1000, body)} ${sign(secret, 'msg_1', now / 1000, body)}`;
    expect(verifyWebhook(secret, Buffer.from(body), new Headers(headers(both)), { now })).toMatchObject({ id: 'evt_1' });
  });

  it('refuses a bad signature, a changed body, an old or future timestamp, a missing header', () => {
    const good = sign(secret, 'msg_1', now / 1000, body);
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const refuse = (fn: () => unknown, message: string) => {
      expect(fn).toThrow(WebhookVerificationError);
      expect(fn).toThrow(message);
    };
    refuse(() => verifyWebhook(other, body, headers(good), { now }), 'No matching signature in webhook-signature');
    refuse(() => verifyWebhook(secret, `${body} `, headers(good), { now }), 'No matching signature in webhook-signature');
    refuse(() => verifyWebhook(secret, body, headers('v2,abc'), { now }), 'No matching signature in webhook-signature');
    const old = now / 1000 - 301;
    refuse(
      () => verifyWebhook(secret, body, headers(sign(secret, 'msg_1', old, body), old), { now }),
      'webhook-timestamp is too old or too new',
    );
    const future = now / 1000 + 301;
    refuse(
      () => verifyWebhook(secret, body, headers(sign(secret, 'msg_1', future, body), future), { now }),
      'webhook-timestamp is too old or too new',
    );
    refuse(
      () => verifyWebhook(secret, body, { 'webhook-id': 'msg_1', 'webhook-timestamp': '1' }, { now }),
      'Missing webhook-signature header',
    );
  });
});

describe('PKCE', () => {
  it("gives RFC 7636 appendix B's challenge for its verifier", () => {
    expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('creates a 43-character verifier of the allowed alphabet with its S256 challenge', () => {
    const { codeVerifier, codeChallenge, codeChallengeMethod } = createPkce();
    expect(codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43}$/);
    expect(codeChallenge).toBe(codeChallengeS256(codeVerifier));
    expect(codeChallengeMethod).toBe('S256');
    expect(createPkce().codeVerifier).not.toBe(codeVerifier);
  });
});
