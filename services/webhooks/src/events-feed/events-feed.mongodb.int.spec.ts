import { GenericContainer, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import { MongoReadModelStore } from '@sesame/platform/read-model';
import { describeWithContainers, testPrefix } from '@sesame/platform/testing';
import { eventsFeedStoreSpecification } from './events-feed.store.spec-kit';

/** The events feed's own queries on MongoDB (the read-model contract suite covers the adapter's operators one by one). */
describeWithContainers('the events feed on MongoDB (testcontainers)', () => {
  let container: StartedTestContainer;
  beforeAll(async () => {
    container = await new GenericContainer('mongo:7.0')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start();
  }, 180_000);
  afterAll(async () => {
    await container?.stop();
  });

  eventsFeedStoreSpecification(
    () =>
      MongoReadModelStore.connect({
        url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}`,
        database: 'events-feed',
        namespace: testPrefix(),
      }),
    (store) => store.close(),
  );
});
