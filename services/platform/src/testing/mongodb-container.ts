import type { StartedTestContainer } from 'testcontainers';
import { MongoReadModelStore } from '../read-model/mongodb.read-model';
import { testPrefix } from './test-prefix';

/**
 * A MongoDB 7 container for the suite that calls it (in a `describeWithContainers` block): started
 * before its tests, stopped after them. The function it answers opens a store on it, in a
 * namespace of its own (`testPrefix`). testcontainers is loaded only where the suite runs.
 */
export function mongoDbContainer(database: string): () => Promise<MongoReadModelStore> {
  let container: StartedTestContainer | undefined;
  beforeAll(async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    container = await new GenericContainer('mongo:7.0')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start();
  }, 180_000);
  afterAll(async () => {
    await container?.stop();
  });
  return () => {
    if (!container) throw new Error('the MongoDB container did not start');
    return MongoReadModelStore.connect({
      url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}`,
      database,
      namespace: testPrefix(),
    });
  };
}
