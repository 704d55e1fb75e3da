import { randomUUID } from 'node:crypto';
import { catalogueError } from '@sesame/contracts';
import { ConcurrencyError } from '../event-store/event-store.port';
import type { EventMetadata, EventStore, ExpectedRevision } from '../event-store/event-store.port';
import { streamName } from '../event-store/stream-name';
import { fail } from './decider';

/**
 * A command that acts outside its stream (calls another service, takes a reservation) before it
 * appends first claims the revision it is going to write, so that no other such command acts on
 * the same state meanwhile: once its check held, the revision it checked cannot move before its
 * commit, and a precondition can never fail after its side effects. One claim stream per claimed
 * revision (`claim-<stream>@<revision>`), appended with "no stream expected": the uncontended
 * path is one append and no read. A claim is let go when its command commits (the stream moves
 * past it), or released when it commits nothing; the claim of a holder gone for `graceMs`
 * (crashed mid-command) is taken over. A release the store did not answer (a fault: a node lost,
 * a partition), or a claim whose append the store may have written without answering, is let go
 * again in the background once the store answers, so a fault does not hold the aggregate for the
 * whole grace period.
 */
export type RevisionClaimEvent =
  { type: 'RevisionClaimed'; data: ClaimData } | { type: 'RevisionClaimReleased'; data: ClaimData };

interface ClaimData {
  stream: string;
  revision: number;
  owner: string;
}

export interface ClaimTiming {
  /** When to stop waiting for another holder and answer 409 conflict (ms since the epoch). */
  deadline: number;
  /** How long a claim is its holder's before another command may take it over. */
  graceMs: number;
  now(): number;
}

/** `claimed`: this command may act and append `revision`; `moved`: the stream is past it, load it again. */
export type RevisionClaim = { status: 'claimed'; release(): Promise<void> } | { status: 'moved' };

export const revisionClaimStream = (stream: string, revision: number) => streamName('claim', `${stream}@${revision}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A pause that does not keep the process alive (a background release at shutdown). */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function claimRevision(
  store: EventStore,
  stream: string,
  revision: number,
  metadata: EventMetadata,
  timing: ClaimTiming,
): Promise<RevisionClaim> {
  const claims = revisionClaimStream(stream, revision);
  const data: ClaimData = { stream, revision, owner: randomUUID() };
  const at = () => ({ ...metadata, occurredAt: new Date(timing.now()).toISOString() });
  let expected: ExpectedRevision = 'no_stream';
  for (;;) {
    try {
      const claimed = await store.appendToStream(claims, [{ type: 'RevisionClaimed', data }], {
        expectedRevision: expected,
        metadata: at(),
      });
      return { status: 'claimed', release: () => release(store, claims, data, claimed.nextRevision, at, timing) };
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) {
        // The store may have written the claim before it failed to answer: let it go once it answers.
        letGoLater(store, claims, data, at, timing);
        throw error;
      }
    }
    const free = await untilFree(store, stream, revision, claims, timing);
    if (free === 'moved') return { status: 'moved' };
    expected = free;
  }
}

/**
 * Waits while another command holds the claim: answers `moved` once the stream is past the
 * claimed revision, or the claim stream's revision to append at once the claim is released or
 * its holder gone; 409 conflict past the deadline.
 */
async function untilFree(
  store: EventStore,
  stream: string,
  revision: number,
  claims: string,
  timing: ClaimTiming,
): Promise<'moved' | ExpectedRevision> {
  for (let pause = 5; ; pause = Math.min(2 * pause, 200)) {
    const current = await store.readStream(claims);
    const last = current.events.at(-1);
    if (last?.type !== 'RevisionClaimed') return current.revision === -1 ? 'no_stream' : current.revision;
    if ((await store.readStream(stream)).revision >= revision) return 'moved';
    if (timing.now() - Date.parse(last.metadata.occurredAt) > timing.graceMs) return current.revision;
    if (timing.now() >= timing.deadline) fail(catalogueError('conflict'));
    await sleep(pause);
  }
}

async function release(
  store: EventStore,
  claims: string,
  data: ClaimData,
  revision: number,
  at: () => EventMetadata,
  timing: ClaimTiming,
) {
  try {
    await store.appendToStream(claims, [{ type: 'RevisionClaimReleased', data }], { expectedRevision: revision, metadata: at() });
  } catch (error) {
    // Taken over meanwhile (this command outlived the grace period): the claim is no longer ours.
    if (error instanceof ConcurrencyError) return;
    letGoLater(store, claims, data, at, timing);
  }
}

/**
 * Releases the claim, if it is still this command's, once the store answers again: tried with a
 * growing pause (250 ms to 5 s) for at most the grace period, after which it could be taken over
 * anyway. Never throws: the command answers its own error.
 */
function letGoLater(store: EventStore, claims: string, data: ClaimData, at: () => EventMetadata, timing: ClaimTiming) {
  const attempt = async (waited: number, next: number): Promise<void> => {
    if (waited >= timing.graceMs) return;
    await pause(next);
    try {
      await releaseIfOwn(store, claims, data, at());
    } catch {
      await attempt(waited + next, Math.min(2 * next, 5_000));
    }
  };
  void attempt(0, 250);
}

/** Appends the release after the claim's last event, only if that event is this command's claim. */
async function releaseIfOwn(store: EventStore, claims: string, data: ClaimData, metadata: EventMetadata) {
  const current = await store.readStream(claims);
  const last = current.events.at(-1);
  if (last?.type !== 'RevisionClaimed' || (last.data as ClaimData).owner !== data.owner) return;
  try {
    await store.appendToStream(claims, [{ type: 'RevisionClaimReleased', data }], {
      expectedRevision: current.revision,
      metadata,
    });
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
  }
}
