import { randomUUID } from 'node:crypto';
import { KeyRing, MemoryEventStore, handleCommand } from '@sesame/platform';
import type { TotpEnrollmentEvent } from '@sesame/contracts';
import type { EventMetadata } from '@sesame/platform';
import {
  base32Decode,
  generateTotpSecret,
  matchTotpStep,
  totp,
} from '../services/auth-methods/src/methods/totp/domain/one-time-password';
import { totpEnrollmentDecider } from '../services/auth-methods/src/methods/totp/domain/totp-enrollment.decider';
import type {
  TotpEnrollmentCommand,
  TotpEnrollmentState,
} from '../services/auth-methods/src/methods/totp/domain/totp-enrollment.decider';
import { totpEnrollmentStream } from '../services/auth-methods/src/methods/totp/projections/totp.projection';
import { report } from './lib/report';

/**
 * TOTP challenge validations per second, in process: what the service does for each
 * `PUT .../totp-challenge/validation` once the user is looked up (decrypt the secret with the
 * key ring, find the time step among now ± 1, decide on the event-sourced enrollment with the
 * replay and attempt rules, append), next to the raw HMAC-SHA1 TOTP computation rate of the
 * same run. Each user validates once (a code is accepted once). NATS, HTTP and identity lookups
 * are not included; the TOTP system test covers them.
 */
const users = Number(process.env.BENCH_TOTP_USERS ?? 2_000);
const keyRing = new KeyRing(KeyRing.generateKeySpec('bench'));
const store = new MemoryEventStore();
const deps = { eventStore: store };
const metadata = (): EventMetadata => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });
const run = (userId: string, command: TotpEnrollmentCommand) =>
  handleCommand<TotpEnrollmentState, TotpEnrollmentCommand, TotpEnrollmentEvent>(
    deps,
    totpEnrollmentDecider,
    totpEnrollmentStream(userId),
    command,
    metadata(),
  );

async function setUp(): Promise<{ userId: string; secret: string }[]> {
  const enrolled = [];
  for (let index = 0; index < users; index++) {
    const userId = randomUUID();
    const secret = generateTotpSecret();
    const at = new Date().toISOString();
    const tenant = { organization_id: 'org', organization_domain: 'bench', environment: 'sandbox' as const };
    const enrollment = {
      ...tenant,
      user_id: userId,
      email: `user${index}@bench.example`,
      method: 'totp_mobile_app' as const,
      period: 30,
      encrypted_secret: keyRing.seal(secret),
      first_counter: null,
      recovery_code_hashes: [],
      force: false,
      at,
    };
    await run(userId, { type: 'EnrollTotp', data: enrollment });
    await run(userId, {
      type: 'CreateTotpChallenge',
      data: { user_id: userId, request_id: 'r', counter: null, sent_at: null, at },
    });
    enrolled.push({ userId, secret });
  }
  return enrolled;
}

async function validate(userId: string, code: string): Promise<boolean> {
  const { events } = await store.readStream(totpEnrollmentStream(userId));
  const state = events.reduce(totpEnrollmentDecider.evolve as never, totpEnrollmentDecider.initialState()) as TotpEnrollmentState;
  const enrollment = state.enrollment as NonNullable<TotpEnrollmentState['enrollment']>;
  const now = Date.now();
  const step = matchTotpStep(base32Decode(keyRing.open(enrollment.encrypted_secret)), code, now, enrollment.period);
  const result = await run(userId, {
    type: 'ValidateTotpChallenge',
    data: {
      user_id: userId,
      enrollment_nb: enrollment.enrollment_nb,
      request_id: state.challenge?.request_id ?? null,
      step,
      recovery_code_hash: null,
      at: new Date(now).toISOString(),
    },
  });
  return result.events.some((event) => event.type === 'TotpChallengeSucceeded');
}

async function main(): Promise<void> {
  const enrolled = await setUp();
  const codes = enrolled.map(({ secret }) => totp(base32Decode(secret), Date.now()));

  let accepted = 0;
  const started = performance.now();
  for (const [index, { userId }] of enrolled.entries()) if (await validate(userId, codes[index] as string)) accepted++;
  const validationsPerSecond = (users * 1_000) / (performance.now() - started);
  if (accepted < users * 0.95) throw new Error(`only ${accepted} of ${users} validations succeeded (time step boundary?)`);

  const secret = base32Decode(generateTotpSecret());
  const rawCount = users * 20;
  const rawStarted = performance.now();
  for (let index = 0; index < rawCount; index++) totp(secret, 1_700_000_000_000 + index * 30_000);
  const rawPerSecond = (rawCount * 1_000) / (performance.now() - rawStarted);

  report(
    'totp',
    [
      {
        name: 'TOTP challenge validations (decrypt, match, decide, append)',
        value: validationsPerSecond,
        unit: 'validations/s',
        baseline: { name: 'raw HMAC-SHA1 TOTP computations', value: rawPerSecond, unit: 'codes/s' },
      },
    ],
    { users, accepted, note: 'in process, in-memory event store; one validation per user (codes are accepted once)' },
  );
}

void main();
