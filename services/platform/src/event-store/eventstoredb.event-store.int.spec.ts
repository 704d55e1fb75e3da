import { GenericContainer, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import { describeWithContainers } from '../testing/container-runtime';
import { eventStoreContract } from '../testing/event-store.contract';
import { testPrefix } from '../testing/test-prefix';
import { EventStoreDbEventStore } from './eventstoredb.event-store';

describeWithContainers('EventStoreDbEventStore (testcontainers)', () => {
  let container: StartedTestContainer;
  beforeAll(async () => {
    container = await new GenericContainer('eventstore/eventstore:24.10')
      .withEnvironment({ EVENTSTORE_INSECURE: 'true', EVENTSTORE_MEM_DB: 'true', EVENTSTORE_RUN_PROJECTIONS: 'None' })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .start();
  }, 180_000);
  afterAll(async () => {
    await container?.stop();
  });

  eventStoreContract(
    async () =>
      new EventStoreDbEventStore({
        connectionString: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
        namespace: testPrefix(),
      }),
    (store) => store.close(),
  );
});
