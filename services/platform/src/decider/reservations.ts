import { ConcurrencyError } from '../event-store/event-store.port';
import type { EventMetadata, EventStore } from '../event-store/event-store.port';
import { streamName } from '../event-store/stream-name';

/**
 * Uniqueness through reservation streams (DESIGN.md section 3): `unique-<kind>:<value>` is
 * appended with "no stream expected" by the command that takes the value, and released by an
 * event when its owner lets it go. A reservation whose owner stream was still never written a
 * while after it was taken (the owner's append failed after reserving) is an orphan and can be
 * taken over; the grace period keeps a command that is between its two appends safe.
 */
export const orphanGracePeriodMs = 30_000;

export type ReservationEvent =
  | { type: 'UniqueValueReserved'; data: { kind: string; value: string; owner: string } }
  | { type: 'UniqueValueReleased'; data: { kind: string; value: string; owner: string } };

export interface Reservation {
  kind: string;
  value: string;
  /** Stream name of the aggregate taking the value. */
  owner: string;
}

export const reservationStream = (kind: string, value: string) => streamName('unique', `${kind}:${value}`);

export async function reserveUnique(
  eventStore: EventStore,
  reservation: Reservation,
  metadata: EventMetadata,
): Promise<'reserved' | 'taken'> {
  const stream = reservationStream(reservation.kind, reservation.value);
  for (let attempt = 0; attempt < 3; attempt++) {
    const { revision, events } = await eventStore.readStream(stream);
    const last = events.at(-1) as (ReservationEvent & { metadata: EventMetadata }) | undefined;
    if (last?.type === 'UniqueValueReserved') {
      if (last.data.owner === reservation.owner) return 'reserved';
      const age = Date.parse(metadata.occurredAt) - Date.parse(last.metadata.occurredAt);
      if (!(age > orphanGracePeriodMs)) return 'taken';
      const owner = await eventStore.readStream(last.data.owner);
      if (owner.revision !== -1) return 'taken';
    }
    try {
      await eventStore.appendToStream(stream, [{ type: 'UniqueValueReserved', data: reservation }], {
        expectedRevision: revision === -1 ? 'no_stream' : revision,
        metadata,
      });
      return 'reserved';
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
  return 'taken';
}

/** Releases the value if `owner` holds it; a no-op otherwise. */
export async function releaseUnique(eventStore: EventStore, reservation: Reservation, metadata: EventMetadata): Promise<void> {
  const stream = reservationStream(reservation.kind, reservation.value);
  for (let attempt = 0; attempt < 3; attempt++) {
    const { revision, events } = await eventStore.readStream(stream);
    const last = events.at(-1) as ReservationEvent | undefined;
    if (last?.type !== 'UniqueValueReserved' || last.data.owner !== reservation.owner) return;
    try {
      await eventStore.appendToStream(stream, [{ type: 'UniqueValueReleased', data: reservation }], {
        expectedRevision: revision,
        metadata,
      });
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}
