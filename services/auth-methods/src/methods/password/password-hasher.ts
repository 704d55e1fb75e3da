import { hash, verify } from '@node-rs/argon2';
import type { PasswordHash } from '@sesame/contracts';
import type { KeyRing } from '@sesame/platform';

/** OWASP parameters for argon2id: 19 MiB, 2 iterations, 1 lane (`Algorithm.Argon2id` is 2). */
export const argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id with a pepper: a secret derived from the key ring for each rotation period
 * (`epoch`), passed as argon2's secret input. A hash keeps the key id and epoch of its pepper, so
 * a rotation never breaks a password; `isCurrent` tells when to rehash after a sign-in.
 */
export class PasswordHasher {
  private dummy?: Promise<string>;

  constructor(private readonly keyRing: KeyRing) {}

  epochOf(now: Date, rotationPeriodSeconds: number): number {
    return Math.floor(now.getTime() / (rotationPeriodSeconds * 1_000));
  }

  async hash(plainText: string, epoch: number): Promise<PasswordHash> {
    const pepper = this.keyRing.derive(`password-pepper:${epoch}`);
    return {
      hash: await hash(plainText, { ...argon2Options, secret: pepper.secret }),
      pepper_kid: pepper.kid,
      pepper_epoch: epoch,
    };
  }

  async verify(stored: PasswordHash, plainText: string): Promise<boolean> {
    try {
      const pepper = this.keyRing.derive(`password-pepper:${stored.pepper_epoch}`, stored.pepper_kid);
      return await verify(stored.hash, plainText, { secret: pepper.secret });
    } catch {
      return false;
    }
  }

  /** Spends the time of a real check on a password that exists nowhere (unknown users). */
  async verifyDummy(plainText: string): Promise<false> {
    this.dummy ??= hash('no such password', { ...argon2Options, secret: this.keyRing.derive('password-pepper:dummy').secret });
    await verify(await this.dummy, plainText, { secret: this.keyRing.derive('password-pepper:dummy').secret });
    return false;
  }

  isCurrent(stored: PasswordHash, epoch: number): boolean {
    return stored.pepper_epoch === epoch && stored.pepper_kid === this.keyRing.activeKeyId;
  }
}
