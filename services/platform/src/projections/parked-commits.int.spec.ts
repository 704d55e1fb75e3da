import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { KvParkedCommits } from './parked-commits';
import type { ParkedCommit } from './parked-commits';

describe('KvParkedCommits (real NATS key-value)', () => {
  let nc: NatsConnection;
  let prefix: string;
  beforeEach(async () => {
    nc = await connect({ servers: testNatsUrl() });
    prefix = testPrefix();
  });
  afterEach(async () => {
    await (await nc.jetstreamManager()).streams.delete(`KV_${prefix}_parked_commits`);
    await nc.close();
  });

  const parked = (service: string, eventId: string): ParkedCommit => ({
    service,
    read_model: 'sso_connections_v1',
    event_id: eventId,
    event_type: 'SsoConnectionUpdated',
    stream: 'ssoConnection-acme_sandbox',
    revision: 3,
    position: '42',
    error: 'ReadModelLimitError: document nested deeper than 100 levels',
    parked_at: '2026-11-23T00:00:00.000Z',
  });

  it('keeps one entry per service, read model and event, shared by every process of the deployment', async () => {
    const first = await KvParkedCommits.open(nc, prefix);
    const second = await KvParkedCommits.open(nc, prefix);
    await first.park(parked('auth-methods', '3413950d-d17c-48ec-8598-21ca3a4baf59'));
    await second.park(parked('identity', '3413950d-d17c-48ec-8598-21ca3a4baf59'));
    // A rebuild parks the same commit again: its entry is replaced, not doubled.
    await second.park({
      ...parked('auth-methods', '3413950d-d17c-48ec-8598-21ca3a4baf59'),
      parked_at: '2026-11-24T00:00:00.000Z',
    });
    const kv = await nc.jetstream().views.kv(`${prefix}_parked_commits`);
    expect((await kv.get('identity.sso_connections_v1.3413950d-d17c-48ec-8598-21ca3a4baf59'))?.json()).toEqual(
      parked('identity', '3413950d-d17c-48ec-8598-21ca3a4baf59'),
    );
    expect((await kv.get('auth-methods.sso_connections_v1.3413950d-d17c-48ec-8598-21ca3a4baf59'))?.json()).toEqual({
      ...parked('auth-methods', '3413950d-d17c-48ec-8598-21ca3a4baf59'),
      parked_at: '2026-11-24T00:00:00.000Z',
    });
    expect((await kv.status()).values).toBe(2);
  });
});
