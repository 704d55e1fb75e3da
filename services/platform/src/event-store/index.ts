/**
 * `@sesame/platform/event-store`: the event store adapters on a server (JetStream, EventStoreDB
 * and its relay onto NATS). Processes open theirs through `openEventStore` (`/runtime`), which loads
 * the EventStoreDB gRPC driver only when it is configured; the port and the in-memory store are
 * in the root entry.
 */
export * from './jetstream.event-store';
export * from './eventstoredb.event-store';
export * from './esdb-relay';
