import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { idempotencyBucket } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { createLogger } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { IdempotencyStore } from './idempotency-store';

/** An answer of 4 KB: more than the bucket takes while it refuses large writes. */
const created: RpcReply = { ok: true, status: 201, body: { id: 'org-1', name: 'x'.repeat(4_096) } };
const subject = 'identity.organizations.create';

/**
 * The store on the real key-value bucket, made to refuse the answer's write for a while (its
 * stream's largest message lowered to 1 KB), as a bucket without a leader refuses every write
 * during an election (the replicated cluster test lost an acknowledged answer so): the answer the
 * client got must be kept.
 */
describe('IdempotencyStore when the key-value bucket refuses the answer for a while', () => {
  const prefix = testPrefix('idem');
  const stream = `KV_${idempotencyBucket(prefix)}`;
  let nc: NatsConnection;
  let store: IdempotencyStore;

  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
    const options = { replicas: 1, timeoutMs: 500, takeoverAfterMs: 20_000 };
    store = await IdempotencyStore.connect({ servers: testNatsUrl() }, prefix, options, createLogger('test', 'silent'));
  });
  afterAll(async () => {
    await store.close();
    await (await nc.jetstreamManager()).streams.delete(stream);
    await nc.close();
  });

  /** Runs `during` while the bucket refuses messages over 1 KB, and keeps refusing them for 1.5 s more. */
  const refusingAnswers = async (during: () => Promise<void>) => {
    const jsm = await nc.jetstreamManager();
    const { config } = await jsm.streams.info(stream);
    await jsm.streams.update(stream, { ...config, max_msg_size: 1_024 });
    try {
      await during();
      await sleep(1_500);
    } finally {
      await jsm.streams.update(stream, { ...config, max_msg_size: -1 });
    }
  };

  const openedFor = (key: string, fingerprint: string) => store.open(key, fingerprint, subject);
  const claimed = async (key: string, fingerprint: string) => {
    const opened = await openedFor(key, fingerprint);
    if (opened.outcome !== 'claimed') throw new Error(`not claimed: ${opened.outcome}`);
    return opened.claim;
  };
  /** What the key opens to once it is no longer in progress (10 s at most). */
  async function settled(key: string, fingerprint: string) {
    for (const deadline = Date.now() + 10_000; ; await sleep(100)) {
      const opened = await openedFor(key, fingerprint);
      if (opened.outcome !== 'in_progress' || Date.now() > deadline) return opened;
    }
  }

  it('keeps the answer the client got: stored once the bucket takes it, then replayed (not worked out again)', async () => {
    // Given a request that claimed its key
    const claim = await claimed('key-answer', 'fingerprint-1');
    // When its answer is settled while the bucket refuses it (settle returns after its first attempt)
    await refusingAnswers(() => claim.settle(created));
    // Then the answer is stored once the bucket takes it, and a duplicate gets it back
    expect(await settled('key-answer', 'fingerprint-1')).toEqual({ outcome: 'replay', answer: created });
  });
});
