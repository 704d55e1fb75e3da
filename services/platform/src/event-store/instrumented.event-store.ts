import type { Histogram } from 'prom-client';
import { currentTraceContext } from '../tracing/spans';
import type { AppendOptions, EventStore, NewEvent } from './event-store.port';

/**
 * Measures append latency of any event store, and stamps the active trace into the events'
 * metadata so projections and reactions continue the request's trace.
 */
export function instrumentEventStore(store: EventStore, appendDuration: Histogram): EventStore {
  return {
    readStream: (stream) => store.readStream(stream),
    appendToStream: async (stream: string, events: NewEvent[], options: AppendOptions) => {
      const end = appendDuration.startTimer();
      try {
        return await store.appendToStream(stream, events, {
          ...options,
          metadata: { ...options.metadata, ...currentTraceContext() },
        });
      } finally {
        end();
      }
    },
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
