import type { AppError, TenantRef } from '@sesame/contracts';
import type { DomainEvent } from '../event-store/event-store.port';

/**
 * A decider (emmett): pure functions deciding which events a command produces given the state,
 * and folding events into state. No I/O; time and lookups arrive inside the command.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
  /**
   * The organization the aggregate belongs to, as its state knows it: stamped on the envelope of
   * the events it appends (`EventMetadata.tenant`) when their data do not name it.
   */
  tenant?(state: State): TenantRef | undefined;
}

/** A business rule refused the command; carries the answer the caller gets. */
export class DomainError extends Error {
  constructor(readonly error: AppError) {
    super(describe(error));
    this.name = 'DomainError';
  }
}

export function fail(error: AppError): never {
  throw new DomainError(error);
}

function describe(error: AppError): string {
  if (error.kind === 'fields')
    return Object.entries(error.fields)
      .map(([field, messages]) => `${field} ${messages.join(', ')}`)
      .join('; ');
  if (error.kind === 'oauth') return `${error.code}: ${error.description}`;
  if (error.kind === 'scim') return `${error.status} ${error.scimType ?? ''}: ${error.detail}`;
  return error.message ? `${error.code}: ${error.message}` : error.code;
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}
