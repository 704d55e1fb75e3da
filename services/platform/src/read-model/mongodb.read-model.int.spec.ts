import { GenericContainer, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import { describeWithContainers } from '../testing/container-runtime';
import { readModelContract } from '../testing/read-model.contract';
import { testPrefix } from '../testing/test-prefix';
import { MongoReadModelStore } from './mongodb.read-model';

describeWithContainers('MongoReadModelStore (testcontainers)', () => {
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

  readModelContract(
    () =>
      MongoReadModelStore.connect({
        url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}`,
        database: 'contract',
        namespace: testPrefix(),
      }),
    (store) => store.close(),
  );
});
