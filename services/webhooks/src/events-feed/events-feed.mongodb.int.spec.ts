import { describeWithContainers, mongoDbContainer } from '@sesame/platform/testing';
import { eventsFeedStoreSpecification } from './events-feed.store.spec-kit';

/** The events feed's own queries on MongoDB (the read-model contract suite covers the adapter's operators one by one). */
describeWithContainers('the events feed on MongoDB (testcontainers)', () => {
  const connect = mongoDbContainer('events-feed');
  eventsFeedStoreSpecification(connect, (store) => store.close());
});
