import type { SigningKeyEvent } from '@sesame/contracts';
import type { Decider } from '@sesame/platform';

export interface StoredSigningKey {
  kid: string;
  public_jwk: Record<string, unknown>;
  encrypted_private_jwk: string;
  created_at: string;
  retired_at: string | null;
}

/** All signing keys of the deployment, newest last. */
export interface SigningKeySetState {
  keys: StoredSigningKey[];
}

export type SigningKeySetCommand =
  | { type: 'GenerateSigningKey'; data: Omit<StoredSigningKey, 'created_at' | 'retired_at'> & { at: string } }
  | { type: 'RetireSigningKeys'; data: { kids: string[]; at: string } };

export const signingKeySetDecider: Decider<SigningKeySetState, SigningKeySetCommand, SigningKeyEvent> = {
  initialState: () => ({ keys: [] }),
  decide(command, state) {
    switch (command.type) {
      case 'GenerateSigningKey': {
        const { at, ...key } = command.data;
        return [{ type: 'SigningKeyGenerated', data: { ...key, alg: 'RS256', at } }];
      }
      case 'RetireSigningKeys': {
        const newest = state.keys.at(-1)?.kid;
        return [...new Set(command.data.kids)]
          .filter((kid) => kid !== newest && state.keys.some((key) => key.kid === kid && key.retired_at === null))
          .map((kid) => ({ type: 'SigningKeyRetired' as const, data: { kid, at: command.data.at } }));
      }
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'SigningKeyGenerated': {
        const { at, alg: _alg, ...key } = event.data;
        return { keys: [...state.keys, { ...key, created_at: at, retired_at: null }] };
      }
      case 'SigningKeyRetired':
        return {
          keys: state.keys.map((key) => (key.kid === event.data.kid ? { ...key, retired_at: event.data.at } : key)),
        };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};

export interface RotationPolicy {
  /** A new key is generated once the newest is this old. */
  rotateAfterMs: number;
  /** A replaced key stays published this long after its successor appeared (longest token lifetime). */
  overlapMs: number;
}

/** Pure rotation rules: what the key set needs now. */
export function rotationPlan(state: SigningKeySetState, policy: RotationPolicy, now: Date) {
  const newest = state.keys.at(-1);
  const needsNewKey = !newest || now.getTime() - Date.parse(newest.created_at) >= policy.rotateAfterMs;
  const retire = state.keys
    .map((key, index) => ({ key, successor: state.keys[index + 1] }))
    .filter(
      ({ key, successor }) =>
        key.retired_at === null &&
        successor !== undefined &&
        now.getTime() - Date.parse(successor.created_at) >= policy.overlapMs,
    )
    .map(({ key }) => key.kid);
  return { needsNewKey, retire };
}
