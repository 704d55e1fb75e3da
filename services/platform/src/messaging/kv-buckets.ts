import type { KV, KvOptions, NatsConnection } from 'nats';

/**
 * How long a process's start waits for a key-value bucket to be found or created. Creating one of
 * 3 replicas on a cluster waits for the meta leader to place it and its replicas to elect a
 * leader: seconds on a loaded machine, far over a rate limiter's per-request timeout (500 ms).
 */
export const bucketSetupTimeoutMs = 30_000;

/**
 * Key-value bucket `name`, created with `options` when missing, under two timeouts: the creation's
 * own (`setupTimeoutMs`), then `requestTimeoutMs` for every request on the bucket (a rate-limit
 * read that must not hold a request up).
 */
export async function openKvBucket(
  nc: NatsConnection,
  name: string,
  options: Partial<KvOptions>,
  requestTimeoutMs: number,
  setupTimeoutMs = bucketSetupTimeoutMs,
): Promise<KV> {
  const created = await nc.jetstream({ timeout: setupTimeoutMs }).views.kv(name, options);
  const { streamInfo } = await created.status();
  // Bound without a request (no API check): the bucket is there.
  const requests = nc.jetstream({ timeout: requestTimeoutMs, checkAPI: false });
  return requests.views.kv(name, { bindOnly: true, allow_direct: streamInfo.config.allow_direct });
}
