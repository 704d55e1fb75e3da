import { deciderSpecification } from '@sesame/platform/testing';
import type { UserMetakeyEvent } from '@sesame/contracts';
import { userMetakeyDecider } from './user-metakey.decider';

const spec = deciderSpecification(userMetakeyDecider);
const at = '2026-01-01T00:00:00.000Z';
const locked = 'is locked: this user metakey is being deleted; try again once its deletion has finished';
const metakey = { name: 'seats', required: true, type: 'integer' as const };
const created: UserMetakeyEvent = { type: 'UserMetakeyCreated', data: { environment: 'sandbox', metakey, at } };
const started: UserMetakeyEvent = { type: 'UserMetakeyDeletionStarted', data: { environment: 'sandbox', name: 'seats', at } };
const deleted: UserMetakeyEvent = {
  type: 'UserMetakeyDeleted',
  data: { environment: 'sandbox', name: 'seats', users_cleaned: 3, at },
};
const create = { type: 'CreateUserMetakey' as const, data: { environment: 'sandbox' as const, metakey, at } };
const startDeletion = { type: 'StartUserMetakeyDeletion' as const, data: { at } };
const finish = { type: 'FinishUserMetakeyDeletion' as const, data: { users_cleaned: 3, at } };

describe('user metakey decider', () => {
  it('creates a key, and again once a previous one is deleted', () => {
    spec.given([]).when(create).then([created]);
    spec.given([created, started, deleted]).when(create).then([created]);
  });

  it('refuses a name already taken, and one being deleted', () => {
    spec
      .given([created])
      .when(create)
      .thenFails({ kind: 'fields', fields: { name: ['has already been taken'] }, reason: 'taken' });
    spec
      .given([created, started])
      .when(create)
      .thenFails({ kind: 'fields', fields: { name: [locked] } });
  });

  it('locks the key when its deletion starts; a second deletion is refused while locked', () => {
    spec.given([created]).when(startDeletion).then([started]);
    spec
      .given([created, started])
      .when(startDeletion)
      .thenFails({ kind: 'fields', fields: { name: [locked] } });
  });

  it('answers not found for deleting an unknown or deleted key', () => {
    spec.given([]).when(startDeletion).thenFails({ kind: 'error', code: 'resource_not_found' });
    spec.given([created, started, deleted]).when(startDeletion).thenFails({ kind: 'error', code: 'resource_not_found' });
  });

  it('finishes a locked deletion once', () => {
    spec.given([created, started]).when(finish).then([deleted]);
    spec.given([created, started, deleted]).when(finish).thenNothingHappens();
    spec.given([created]).when(finish).thenNothingHappens();
  });
});
