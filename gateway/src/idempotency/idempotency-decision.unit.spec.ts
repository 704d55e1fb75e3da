import { decideIdempotency, fingerprintOf, storeKeyOf } from './idempotency-decision';
import type { StoredRecord } from './idempotency-decision';

const takeoverMs = 60_000;
const now = 1_700_000_000_000;
const fingerprint = fingerprintOf('POST', '/api/v2/organizations', { name: 'Acme' });
const answer = { ok: true as const, status: 201, body: { id: 'o1' }, headers: { location: '/o1' } };
const inFlight = (claimedAt: number, print = fingerprint): StoredRecord => ({
  record: { state: 'in_flight', fingerprint: print, claimed_at: claimedAt },
  revision: 7,
});
const done = (print = fingerprint): StoredRecord => ({ record: { state: 'done', fingerprint: print, answer }, revision: 8 });

describe('decideIdempotency', () => {
  it('claims a key nobody holds', () => {
    expect(decideIdempotency(null, fingerprint, now, takeoverMs)).toEqual({ action: 'claim' });
  });

  it('replays the stored answer of the same request', () => {
    expect(decideIdempotency(done(), fingerprint, now, takeoverMs)).toEqual({ action: 'replay', answer });
  });

  it('refuses another request under a used key, answered or in flight', () => {
    const other = fingerprintOf('POST', '/api/v2/organizations', { name: 'Other' });
    expect(decideIdempotency(done(other), fingerprint, now, takeoverMs)).toEqual({ action: 'reused' });
    expect(decideIdempotency(inFlight(now, other), fingerprint, now, takeoverMs)).toEqual({ action: 'reused' });
    expect(decideIdempotency(inFlight(now - 2 * takeoverMs, other), fingerprint, now, takeoverMs)).toEqual({
      action: 'reused',
    });
  });

  it('answers in progress while the claim is younger than the takeover delay, then lets a retry take it over', () => {
    expect(decideIdempotency(inFlight(now - takeoverMs + 1), fingerprint, now, takeoverMs)).toEqual({ action: 'in_progress' });
    expect(decideIdempotency(inFlight(now - takeoverMs), fingerprint, now, takeoverMs)).toEqual({
      action: 'take_over',
      revision: 7,
    });
  });
});

describe('fingerprintOf and storeKeyOf', () => {
  it('tell apart the method, the path and the body', () => {
    const prints = new Set([
      fingerprint,
      fingerprintOf('PUT', '/api/v2/organizations', { name: 'Acme' }),
      fingerprintOf('POST', '/api/v2/organizations?x=1', { name: 'Acme' }),
      fingerprintOf('POST', '/api/v2/organizations', { name: 'Acme ' }),
      fingerprintOf('POST', '/api/v2/organizations', undefined),
    ]);
    expect(prints.size).toBe(5);
    expect(fingerprintOf('post', '/api/v2/organizations', { name: 'Acme' })).toBe(fingerprint);
  });

  it('scope a key to the API key and its environment, in characters a KV key accepts', () => {
    const keys = new Set([
      storeKeyOf({ clientId: 'a', environment: 'sandbox' }, 'k'),
      storeKeyOf({ clientId: 'b', environment: 'sandbox' }, 'k'),
      storeKeyOf({ clientId: 'a', environment: 'production' }, 'k'),
      storeKeyOf({ clientId: 'a', environment: 'sandbox' }, 'k2'),
    ]);
    expect(keys.size).toBe(4);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
