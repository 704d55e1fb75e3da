import { JSONCodec, headers } from 'nats';
import type { JetStreamClient } from 'nats';
import type { Commit, EventStore, Subscription } from './event-store.port';
import { encodeSubjectToken, parseStreamName } from './stream-name';
import type { Collection, ReadModelStore } from '../read-model/read-model.port';
import type { Logger } from '../logging/logger';

const codec = JSONCodec<{ v: 1; events: Commit['events'] }>();

/**
 * With EventStoreDB as the store, the store is the outbox (DESIGN.md section 3): this relay
 * publishes every committed event to the service's JetStream events stream, from a
 * checkpointed subscription, with the event id as `Nats-Msg-Id` so that a replay within the
 * duplicate window is dropped by JetStream (consumers dedupe by event id beyond it).
 */
export function startEsdbRelay(options: {
  eventStore: EventStore;
  js: JetStreamClient;
  subjectPrefix: string;
  readModels: ReadModelStore;
  logger: Logger;
}): Promise<Subscription> {
  const checkpoints: Collection<{ _id: string; position: string }> = options.readModels.collection('_relay');
  return (async () => {
    const saved = await checkpoints.get('esdb-relay');
    return options.eventStore.subscribeToAll({
      from: BigInt(saved?.position ?? '0'),
      onCommit: async (commit) => {
        const first = commit.events[0];
        if (!first) return;
        const { category, id } = parseStreamName(first.stream);
        const msgHeaders = headers();
        msgHeaders.set('Nats-Msg-Id', first.id);
        await options.js.publish(
          `${options.subjectPrefix}.events.${category}.${encodeSubjectToken(id)}`,
          codec.encode({ v: 1, events: commit.events }),
          { headers: msgHeaders },
        );
        await checkpoints.upsert({ _id: 'esdb-relay', position: String(commit.position) });
      },
    });
  })();
}
