import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent, RecordedEvent } from './event-store.port';

/** Numbers new events from `firstRevision` on and stamps them with ids and metadata. */
export function recordEvents(
  stream: string,
  events: NewEvent[],
  firstRevision: number,
  metadata: EventMetadata,
): RecordedEvent[] {
  return events.map((event, index) => ({
    id: event.id ?? randomUUID(),
    type: event.type,
    data: event.data,
    stream,
    revision: firstRevision + index,
    metadata,
  }));
}

export function revisionOf(expected: 'no_stream' | number): number {
  return expected === 'no_stream' ? -1 : expected;
}
