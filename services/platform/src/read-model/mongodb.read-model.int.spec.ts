import { describeWithContainers } from '../testing/container-runtime';
import { mongoDbContainer } from '../testing/mongodb-container';
import { readModelContract } from '../testing/read-model.contract';

describeWithContainers('MongoReadModelStore (testcontainers)', () => {
  const connect = mongoDbContainer('contract');
  readModelContract(connect, (store) => store.close());
});
