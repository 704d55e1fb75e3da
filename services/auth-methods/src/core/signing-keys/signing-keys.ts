import { createPrivateKey, generateKeyPair } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import type { JWK } from 'jose';
import type { SigningKeyEvent } from '@sesame/contracts';
import { Aggregate, ConcurrencyError, streamName } from '@sesame/platform';
import type { EventMetadata, EventStore, KeyRing, Logger } from '@sesame/platform';
import { rotationPlan, signingKeySetDecider } from './signing-key-set.decider';
import type { RotationPolicy, SigningKeySetCommand, SigningKeySetState } from './signing-key-set.decider';

const generateRsa = promisify(generateKeyPair);
/** The deployment's one key set. */
const keySetId = 'default';
const refreshEveryMs = 5_000;

export interface ActiveSigningKey {
  kid: string;
  privateKey: KeyObject;
}

/**
 * The deployment's RS256 signing keys, kept as events (private keys encrypted with the key ring)
 * so that they survive restarts and every replica signs with the same keys. Rotation appends
 * with the expected revision, so concurrent replicas generate one key, not several.
 */
export class SigningKeys {
  private state: SigningKeySetState = { keys: [] };
  private loadedAt = 0;
  private active?: ActiveSigningKey;
  private readonly keySet: Aggregate<SigningKeySetState, SigningKeySetCommand, SigningKeyEvent>;

  constructor(
    eventStore: EventStore,
    private readonly keyRing: KeyRing,
    private readonly policy: RotationPolicy,
    private readonly logger: Logger,
    private readonly metadata: () => EventMetadata,
  ) {
    this.keySet = new Aggregate(
      { eventStore, attempts: 1 },
      { decider: signingKeySetDecider, stream: (id) => streamName('signingKeys', id) },
    );
  }

  /** Generates a first key or the next one, and retires the ones past their overlap. */
  async rotate(now = new Date()): Promise<void> {
    await this.reload();
    const plan = rotationPlan(this.state, this.policy, now);
    if (plan.needsNewKey)
      await this.apply({ type: 'GenerateSigningKey', data: { ...(await this.newKey()), at: now.toISOString() } });
    if (plan.retire.length > 0)
      await this.apply({ type: 'RetireSigningKeys', data: { kids: plan.retire, at: now.toISOString() } });
  }

  async current(): Promise<ActiveSigningKey> {
    await this.refreshIfStale();
    const newest = this.state.keys.at(-1);
    if (!newest) throw new Error('No signing key: rotate() has not run');
    if (this.active?.kid !== newest.kid)
      this.active = {
        kid: newest.kid,
        privateKey: createPrivateKey({ key: JSON.parse(this.keyRing.open(newest.encrypted_private_jwk)), format: 'jwk' }),
      };
    return this.active;
  }

  /** The published keys: every key not retired. */
  async jwks(): Promise<{ keys: Record<string, unknown>[] }> {
    await this.refreshIfStale();
    return {
      keys: this.state.keys
        .filter((key) => key.retired_at === null)
        .map((key) => ({ ...key.public_jwk, kid: key.kid, alg: 'RS256', use: 'sig' })),
    };
  }

  private async refreshIfStale(): Promise<void> {
    if (Date.now() - this.loadedAt > refreshEveryMs) await this.reload();
  }

  private async reload(): Promise<void> {
    this.state = (await this.keySet.load(keySetId)).state;
    this.loadedAt = Date.now();
  }

  private async apply(command: SigningKeySetCommand): Promise<void> {
    try {
      const result = await this.keySet.handle(keySetId, command, this.metadata());
      this.state = result.state;
      this.loadedAt = Date.now();
      if (command.type === 'GenerateSigningKey') this.logger.info({ kid: command.data.kid }, 'signing key generated');
    } catch (error) {
      // Another replica rotated at the same moment: its key is the one to use.
      if (!(error instanceof ConcurrencyError) && (error as Error).name !== 'DomainError') throw error;
      await this.reload();
    }
  }

  private async newKey() {
    const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
    const publicJwk = publicKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint(publicJwk);
    return {
      kid,
      public_jwk: publicJwk as unknown as Record<string, unknown>,
      encrypted_private_jwk: this.keyRing.seal(JSON.stringify(privateKey.export({ format: 'jwk' }))),
    };
  }
}
