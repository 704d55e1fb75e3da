import { randomUUID } from 'node:crypto';
import type { UserMetakeyEvent } from '@sesame/contracts';
import { systemActor } from '@sesame/platform';
import type { Commit, EventMetadata, Logger, ProjectionRunner, RecordedEvent } from '@sesame/platform';
import { purgeUserMetadataKey } from '../users/commands/user.commands';
import type { UsersDeps } from '../users/users.deps';
import { userMetakeyKey } from './projections/user-metakeys.projection';
import type { UserMetakeysDeps } from './user-metakeys.deps';

export interface MetakeyCleanupDeps {
  metakeys: UserMetakeysDeps;
  users: UsersDeps;
  projections: Pick<ProjectionRunner, 'caughtUp'>;
  logger: Logger;
}

const metadata = (causationId: string, at: Date): EventMetadata => ({
  correlationId: randomUUID(),
  causationId,
  actor: systemActor('identity:metakey-cleanup'),
  occurredAt: at.toISOString(),
});

const maxPasses = 20;

/**
 * Finishes the deletion of a locked user metakey: removes its values from every user of the
 * environment, until a pass over the caught-up read model finds none, then deletes the key.
 * Runs from the identity event feed, so a crash resumes it; every step is idempotent.
 */
export function metakeyCleanupReactor(deps: MetakeyCleanupDeps) {
  return async (commit: Commit): Promise<void> => {
    for (const event of commit.events as RecordedEvent<UserMetakeyEvent>[]) {
      if (event.type !== 'UserMetakeyDeletionStarted') continue;
      const { environment, name } = event.data;
      let cleaned = 0;
      for (let pass = 1; ; pass++) {
        if (pass > maxPasses) throw new Error(`user metakey ${name} still has values after ${maxPasses} passes`);
        await deps.projections.caughtUp();
        const holders = await deps.users.view.documents.find({
          __environment__: environment,
          [`metadata.${name}`]: { $exists: true },
        });
        if (holders.length === 0) break;
        for (const user of holders)
          if (await purgeUserMetadataKey(deps.users, user._id, name, metadata(event.id, deps.metakeys.now()))) cleaned++;
      }
      await deps.metakeys.metakeys.handle(
        userMetakeyKey(environment, name),
        { type: 'FinishUserMetakeyDeletion', data: { users_cleaned: cleaned, at: deps.metakeys.now().toISOString() } },
        metadata(event.id, deps.metakeys.now()),
      );
      deps.logger.info({ environment, metakey: name, users_cleaned: cleaned }, 'user metakey deleted');
    }
  };
}
