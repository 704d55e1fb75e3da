import type { DirectorySyncEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { directorySyncDecider } from '../domain/directory-sync.decider';
import type { DirectorySyncCommand, DirectorySyncState } from '../domain/directory-sync.decider';
import { directorySyncKeyStream } from '../projections/directory-syncs.projection';

/** The directory sync of an organization and environment, named by its key (`directorySyncKey`). */
export const directorySyncAggregate: AggregateType<DirectorySyncState, DirectorySyncCommand, DirectorySyncEvent> = {
  decider: directorySyncDecider,
  stream: directorySyncKeyStream,
};
