import { readModelContract } from '../testing/read-model.contract';
import { MemoryReadModelStore } from './memory.read-model';

describe('MemoryReadModelStore', () => {
  readModelContract(
    async () => new MemoryReadModelStore(),
    (store) => store.close(),
  );
});
