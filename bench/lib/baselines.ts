import { generateKeyPairSync } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { SignJWT } from 'jose';
import { connect } from 'nats';
import type { ConnectionOptions } from 'nats';
import { testPrefix } from '@sesame/platform/testing';
import { argon2Options } from '../../services/auth-methods/src/methods/password/password-hasher';
import { generateSignatureKey, signatureHeaders } from '../../services/webhooks/src/delivery/signing';
import { startBareFastify } from './bare-fastify';
import { load } from './load';
import type { LoadResult } from './load';
import { timed } from './timing';
import type { Bound, Timed } from './timing';

/**
 * The raw baselines every figure is compared with, each measured in the same run on the same
 * machine: bare Fastify (HTTP), a raw JetStream publish (writes), a raw RS256 signature (tokens),
 * a raw argon2id hash (passwords).
 */

/** A bare Fastify hello-world in its own process under autocannon (16 connections by default). */
export async function bareFastifyBaseline(durationSeconds?: number): Promise<LoadResult> {
  const bare = await startBareFastify();
  try {
    return await load({ url: bare.url, durationSeconds });
  } finally {
    await bare.stop();
  }
}

const rawCommit = Buffer.from(JSON.stringify({ v: 1, events: [{ type: 'Raw', data: { email: 'x@bench.example' } }] }));

/** Raw JetStream publishes of a commit-sized message, to a stream of its own deleted afterwards. */
export async function rawPublishBaseline(nats: ConnectionOptions, bound: Bound, concurrency: number): Promise<Timed> {
  const nc = await connect(nats);
  const prefix = testPrefix('bl');
  const stream = `${prefix}_RAW`.toUpperCase();
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: stream, subjects: [`${prefix}.raw.>`] });
  try {
    const js = nc.jetstream();
    return await timed(bound, concurrency, (i) => js.publish(`${prefix}.raw.r${i}`, rawCommit));
  } finally {
    await jsm.streams.delete(stream);
    await nc.close();
  }
}

/** Raw RS256 JWT signatures with jose and a 2048-bit key, one at a time (one core). */
export async function rawRs256Baseline(bound: Bound): Promise<Timed> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return timed(bound, 1, () =>
    new SignJWT({ scp: ['organizations:read'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey),
  );
}

/** Raw argon2id hashes at the password service's parameters (OWASP: 19 MiB, t=2, p=1), peppered as it does. */
export async function rawArgon2idBaseline(bound: Bound, concurrency: number, plainText: string): Promise<Timed> {
  return timed(bound, concurrency, () => hash(plainText, { ...argon2Options, secret: Buffer.alloc(32, 1) }));
}

/** Raw webhook deliveries: a ~1 KB body signed (Standard Webhooks) and POSTed to a receiver, no job bookkeeping. */
export async function rawSignedPostBaseline(url: string, bound: Bound, concurrency: number): Promise<Timed> {
  const key = generateSignatureKey();
  const body = JSON.stringify({ code: 'user.created', data: { padding: 'x'.repeat(900) } });
  return timed(bound, concurrency, async (i) => {
    const headers = signatureHeaders([key], `evt_${i}`, Math.floor(Date.now() / 1_000), body);
    const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
  });
}
