import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import { createLogger } from '@sesame/platform';
import { JetStreamEventStore } from '@sesame/platform/event-store';
import { jetStreamName } from '@sesame/platform/stores';
import { testNatsUrl, testPrefix, withSilentConsumers } from '@sesame/platform/testing';
import { RevokedApiKeys } from './revoked-api-keys';

const logger = createLogger('test', 'silent');
const metadata = () => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });

/** auth-methods' events stream under a test prefix, where the CLI's revocations land. */
async function authMethodsEvents(nc: NatsConnection, prefix: string) {
  const store = await JetStreamEventStore.open(nc, {
    streamName: jetStreamName(prefix, 'auth-methods'),
    subjectPrefix: eventSubjectPrefix(prefix, 'auth-methods'),
    replicas: 1,
  });
  const key = async (state: 'created' | 'revoked') => {
    const clientId = randomUUID();
    const at = new Date().toISOString();
    const created = { client_id: clientId, name: 'k', secret_hash: 'h', environment: 'sandbox', scopes: ['users:read'], at };
    const events = [{ type: 'ApiKeyCreated', data: created }];
    if (state === 'revoked') events.push({ type: 'ApiKeyRevoked', data: { client_id: clientId, at } as never });
    await store.appendToStream(`apiKey-${clientId}`, events, { expectedRevision: 'no_stream', metadata: metadata() });
    return clientId;
  };
  const revoke = (clientId: string) =>
    store.appendToStream(
      `apiKey-${clientId}`,
      [{ type: 'ApiKeyRevoked', data: { client_id: clientId, at: new Date().toISOString() } }],
      { expectedRevision: 0, metadata: metadata() },
    );
  // Other aggregates share the stream: they must not be mistaken for keys.
  await store.appendToStream(`signingKey-${randomUUID()}`, [{ type: 'SigningKeyRetired', data: {} }], {
    expectedRevision: 'no_stream',
    metadata: metadata(),
  });
  return { store, key, revoke };
}

const until = async (condition: () => boolean, timeoutMs = 5_000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('not in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
};

describe('RevokedApiKeys (auth-methods events on the real NATS)', () => {
  let nc: NatsConnection;
  const prefixes: string[] = [];
  const running: RevokedApiKeys[] = [];
  const follow = (prefix: string, lifetimeMs = 36_000_000) => {
    const revoked = new RevokedApiKeys(nc, prefix, lifetimeMs, logger);
    running.push(revoked);
    revoked.start();
    return revoked;
  };
  const newPrefix = () => {
    const prefix = testPrefix('rv');
    prefixes.push(prefix);
    return prefix;
  };
  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
  });
  afterAll(async () => {
    await Promise.all(running.map((revoked) => revoked.stop()));
    const jsm = await nc.jetstreamManager();
    for (const prefix of prefixes) await jsm.streams.delete(jetStreamName(prefix, 'auth-methods')).catch(() => undefined);
    await nc.close();
  });

  it('loads the revocations committed before it started, and only then says it is loaded', async () => {
    const prefix = newPrefix();
    const events = await authMethodsEvents(nc, prefix);
    const revokedBefore = [await events.key('revoked'), await events.key('revoked')];
    const active = await events.key('created');
    const revoked = follow(prefix);
    await until(() => revoked.isLoaded());
    for (const clientId of revokedBefore) expect(revoked.has(clientId)).toBe(true);
    expect(revoked.has(active)).toBe(false);
  });

  it('hears a revocation committed while it runs within milliseconds, on every replica', async () => {
    const prefix = newPrefix();
    const events = await authMethodsEvents(nc, prefix);
    const clientId = await events.key('created');
    const replicas = [follow(prefix), follow(prefix)];
    for (const replica of replicas) await until(() => replica.isLoaded());
    await events.revoke(clientId);
    const delays = await Promise.all(replicas.map((replica) => until(() => replica.has(clientId), 2_000)));
    console.log(`revocation heard after ${delays.join(' and ')} ms`);
  });

  it('hears a revocation its silent consumer missed once it renews its consumer', async () => {
    const prefix = newPrefix();
    const events = await authMethodsEvents(nc, prefix);
    const clientId = await events.key('created');
    const reader = (connection: NatsConnection) => {
      const revoked = new RevokedApiKeys(connection, prefix, 36_000_000, logger, Date.now, false, 1_500);
      running.push(revoked);
      revoked.start();
      return revoked;
    };
    // The first consumer of one is silent; every consumer of the other is.
    const renewing = reader(withSilentConsumers(nc, 1));
    const silent = reader(withSilentConsumers(nc));
    await until(() => renewing.isLoaded() && silent.isLoaded());
    await events.revoke(clientId);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(renewing.has(clientId)).toBe(false);
    await until(() => renewing.has(clientId), 3_000);
    expect(silent.has(clientId)).toBe(false);
  });

  it('waits for the events stream auth-methods has not created yet, loaded with nothing revoked', async () => {
    const prefix = newPrefix();
    const revoked = follow(prefix);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(revoked.isLoaded()).toBe(false);
    const events = await authMethodsEvents(nc, prefix);
    await until(() => revoked.isLoaded(), 10_000);
    const clientId = await events.key('created');
    await events.revoke(clientId);
    await until(() => revoked.has(clientId), 2_000);
  });

  it('forgets revocations older than a token lifetime (and its margin): their tokens have all expired', async () => {
    const prefix = newPrefix();
    const events = await authMethodsEvents(nc, prefix);
    const old = await events.key('revoked');
    // A lifetime of -5 min + 1 s: only the last second's revocations matter.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const recent = await events.key('revoked');
    const revoked = follow(prefix, -5 * 60_000 + 1_000);
    await until(() => revoked.isLoaded());
    expect([revoked.has(old), revoked.has(recent)]).toEqual([false, true]);
  });
});
