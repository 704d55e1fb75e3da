import type { AppError } from '@sesame/contracts';
import { DomainError, fold } from '../decider/decider';
import type { Decider } from '../decider/decider';
import type { DomainEvent } from '../event-store/event-store.port';

/**
 * Given/when/then for deciders (emmett's DeciderSpecification):
 *
 *   spec.given([created]).when(update).then([updated]);
 *   spec.given([]).when(update).thenFails({ kind: 'error', code: 'resource_not_found' });
 */
export function deciderSpecification<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, fold(decider, events));
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenNothingHappens() {
              expect(run()).toEqual([]);
            },
            thenFails(expected: AppError) {
              let thrown: unknown;
              try {
                run();
              } catch (error) {
                thrown = error;
              }
              expect(thrown).toBeInstanceOf(DomainError);
              expect((thrown as DomainError).error).toEqual(expected);
            },
          };
        },
      };
    },
  };
}
