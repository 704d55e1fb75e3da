import { Webhook } from 'standardwebhooks';
import { generateSignatureKey, sign, signatureHeaders } from './signing';

describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ code: 'user.created', data: { id: 1 } });
  const timestamp = Math.floor(Date.now() / 1_000);

  it('is verified by the published standardwebhooks library', () => {
    const key = generateSignatureKey();
    expect(key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signatureHeaders([key], 'evt_1', timestamp, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(key).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('matches the library signature byte for byte', () => {
    const key = generateSignatureKey();
    expect(sign(key, 'evt_1', timestamp, body)).toBe(new Webhook(key).sign('evt_1', new Date(timestamp * 1_000), body));
  });

  it('carries one signature per key during a rotation: either key verifies', () => {
    const [current, previous] = [generateSignatureKey(), generateSignatureKey()];
    const headers = signatureHeaders([current, previous], 'evt_2', timestamp, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(generateSignatureKey()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });
});
