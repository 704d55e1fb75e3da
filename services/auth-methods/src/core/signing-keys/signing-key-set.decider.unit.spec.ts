import type { SigningKeyEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { rotationPlan, signingKeySetDecider } from './signing-key-set.decider';

const generated = (kid: string, at: string): SigningKeyEvent => ({
  type: 'SigningKeyGenerated',
  data: { kid, alg: 'RS256', public_jwk: { kty: 'RSA' }, encrypted_private_jwk: 'sealed', at },
});
const spec = deciderSpecification(signingKeySetDecider);
const day = 86_400_000;
const policy = { rotateAfterMs: 30 * day, overlapMs: day };
const fold = (events: SigningKeyEvent[]) => events.reduce(signingKeySetDecider.evolve, signingKeySetDecider.initialState());

describe('signing key set', () => {
  it('generates keys', () =>
    spec
      .given([])
      .when({
        type: 'GenerateSigningKey',
        data: { kid: 'k1', public_jwk: { kty: 'RSA' }, encrypted_private_jwk: 'sealed', at: '2026-01-01T00:00:00.000Z' },
      })
      .then([generated('k1', '2026-01-01T00:00:00.000Z')]));

  it('retires old keys but never the newest, and each key once', () =>
    spec
      .given([generated('k1', '2026-01-01T00:00:00.000Z'), generated('k2', '2026-02-01T00:00:00.000Z')])
      .when({ type: 'RetireSigningKeys', data: { kids: ['k1', 'k2', 'k1', 'unknown'], at: '2026-02-03T00:00:00.000Z' } })
      .then([{ type: 'SigningKeyRetired', data: { kid: 'k1', at: '2026-02-03T00:00:00.000Z' } }]));

  describe('rotation plan', () => {
    it('asks for a first key', () =>
      expect(rotationPlan(fold([]), policy, new Date('2026-01-01'))).toEqual({ needsNewKey: true, retire: [] }));

    it('keeps a young key', () =>
      expect(rotationPlan(fold([generated('k1', '2026-01-01T00:00:00.000Z')]), policy, new Date('2026-01-20'))).toEqual({
        needsNewKey: false,
        retire: [],
      }));

    it('rotates an old key and keeps it published during the overlap', () => {
      const state = fold([generated('k1', '2026-01-01T00:00:00.000Z')]);
      expect(rotationPlan(state, policy, new Date('2026-02-01'))).toEqual({ needsNewKey: true, retire: [] });
      const rotated = fold([generated('k1', '2026-01-01T00:00:00.000Z'), generated('k2', '2026-02-01T00:00:00.000Z')]);
      expect(rotationPlan(rotated, policy, new Date('2026-02-01T12:00:00.000Z'))).toEqual({ needsNewKey: false, retire: [] });
      expect(rotationPlan(rotated, policy, new Date('2026-02-02T00:00:01.000Z'))).toEqual({ needsNewKey: false, retire: ['k1'] });
    });
  });
});
