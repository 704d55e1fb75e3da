import type { Commit } from '../event-store/event-store.port';

/**
 * A read-model projection. `apply` must be idempotent: a commit can arrive twice (inline after
 * the append, then from the subscription; or again after a restart).
 */
export interface Projection {
  name: string;
  /** Bumping the version rebuilds the projection from position 0 into new collections. */
  version: number;
  /** Stream categories whose commits it reads. */
  categories: string[];
  init(): Promise<void>;
  apply(commit: Commit): Promise<void>;
  /** The state a command handler just produced for `stream` at `revision`, applied inline. */
  applyState?(stream: string, revision: number, state: unknown): Promise<void>;
}
