import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { eventStoreContract } from '../testing/event-store.contract';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import type { EventStore } from './event-store.port';
import { JetStreamEventStore } from './jetstream.event-store';

describe('JetStreamEventStore (real NATS server)', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
  });
  afterAll(async () => {
    await nc.close();
  });

  eventStoreContract(
    async () => {
      const prefix = testPrefix();
      return JetStreamEventStore.open(nc, {
        streamName: `${prefix}_CONTRACT`.toUpperCase(),
        subjectPrefix: `${prefix}.contract`,
      });
    },
    async (store: EventStore) => {
      await (store as JetStreamEventStore).destroy();
    },
  );

  it('refuses to reuse a JetStream stream configured for other subjects', async () => {
    const prefix = testPrefix();
    const name = `${prefix}_CLASH`.toUpperCase();
    const store = await JetStreamEventStore.open(nc, { streamName: name, subjectPrefix: `${prefix}.one` });
    try {
      await expect(JetStreamEventStore.open(nc, { streamName: name, subjectPrefix: `${prefix}.two` })).rejects.toThrow(
        /exists with other subjects/,
      );
    } finally {
      await store.destroy();
    }
  });
});
