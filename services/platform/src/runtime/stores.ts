import type { NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import type { ServiceName } from '@sesame/contracts';
import type { BaseConfig } from '../config/config';
import type { EventStore } from '../event-store/event-store.port';
import { JetStreamEventStore } from '../event-store/jetstream.event-store';
import type { Logger } from '../logging/logger';
import { MemoryReadModelStore } from '../read-model/memory.read-model';
import type { ReadModelStore } from '../read-model/read-model.port';

/** Name of a service's JetStream stream, e.g. `SESAME_IDENTITY_EVENTS`. */
export const jetStreamName = (prefix: string, service: ServiceName) =>
  `${prefix}_${service}_events`.toUpperCase().replace(/-/g, '_');

export async function openEventStore(
  service: ServiceName,
  config: BaseConfig,
  nc: NatsConnection,
  logger: Logger,
): Promise<EventStore> {
  const onError = (error: unknown) => logger.error({ err: error }, 'event store subscription error');
  if (config.SESAME_EVENT_STORE === 'eventstoredb') {
    // The gRPC driver is loaded only by the processes configured for it.
    const { EventStoreDbEventStore } = await import('../event-store/eventstoredb.event-store.js');
    return new EventStoreDbEventStore({
      connectionString: config.SESAME_EVENTSTOREDB_URL as string,
      namespace: `${config.SESAME_PREFIX}.${service}`,
      onError,
    });
  }
  return JetStreamEventStore.open(nc, {
    streamName: jetStreamName(config.SESAME_PREFIX, service),
    subjectPrefix: eventSubjectPrefix(config.SESAME_PREFIX, service),
    replicas: config.SESAME_JETSTREAM_REPLICAS,
    onError,
  });
}

export async function openReadModels(service: ServiceName, config: BaseConfig): Promise<ReadModelStore> {
  if (config.SESAME_READ_MODEL === 'mongodb') {
    const { MongoReadModelStore } = await import('../read-model/mongodb.read-model.js');
    return MongoReadModelStore.connect({
      url: config.SESAME_MONGODB_URL as string,
      database: config.SESAME_MONGODB_DATABASE,
      namespace: `${config.SESAME_PREFIX}_${service.replace(/-/g, '_')}`,
    });
  }
  return new MemoryReadModelStore();
}

/**
 * Another service's events store as this process follows it: from a position, in order, one
 * commit at a time, each replica on its own (an ordered consumer; no durable shared by replicas).
 * On JetStream, the embedded default and the relay's target with EventStoreDB alike.
 */
export function followServiceEvents(nc: NatsConnection, prefix: string, source: ServiceName, onError: (error: unknown) => void) {
  return JetStreamEventStore.follow(nc, {
    streamName: jetStreamName(prefix, source),
    subjectPrefix: eventSubjectPrefix(prefix, source),
    onError,
  });
}
