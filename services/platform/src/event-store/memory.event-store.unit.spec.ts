import { eventStoreContract } from '../testing/event-store.contract';
import { MemoryEventStore } from './memory.event-store';

describe('MemoryEventStore', () => {
  eventStoreContract(
    async () => new MemoryEventStore(),
    (store) => store.close(),
  );
});
