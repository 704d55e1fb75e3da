import type { Histogram } from 'prom-client';
import { currentTraceContext } from '../tracing/spans';
import type { AppendOptions, EventStore, NewEvent } from './event-store.port';
import { noteAppend } from './append-scope';

/**
 * Measures append latency of any event store, stamps the active trace into the events'
 * metadata so projections and reactions continue the request's trace, and notes the position each
 * append reached for the request's consistency token (`trackingAppends`).
 */
export function instrumentEventStore(store: EventStore, appendDuration: Histogram): EventStore {
  return {
    readStream: (stream, options) => store.readStream(stream, options),
    appendToStream: async (stream: string, events: NewEvent[], options: AppendOptions) => {
      const end = appendDuration.startTimer();
      try {
        const result = await store.appendToStream(stream, events, {
          ...options,
          metadata: { ...options.metadata, ...currentTraceContext() },
        });
        if (result.events.length > 0) noteAppend(result.position);
        return result;
      } finally {
        end();
      }
    },
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
