import type { Environment, ScimActivityEvent } from '@sesame/contracts';
import type { Decider } from '@sesame/platform';

/** A request is recorded at most this often per directory sync (and replica), errors aside. */
export const activityRecordingStepMs = 60_000;

export interface ScimActivityError {
  at: string;
  status: number;
  detail: string;
}

/** What a directory sync's SCIM client did: its last request recorded, and its last refused one. */
export type ScimActivityState =
  | { status: 'none' }
  | {
      status: 'recorded';
      directory_sync_id: string;
      organization_domain: string;
      environment: Environment;
      last_request_at: string;
      last_error: ScimActivityError | null;
    };

export type ScimActivityCommand = {
  type: 'RecordScimActivity';
  data: ScimActivityEvent['data'];
};

const elapsed = (from: string, to: string) => Date.parse(to) - Date.parse(from);

/** Whether a request is worth an event: the first one, a minute after the last recorded, or a new error. */
export function isWorthRecording(state: ScimActivityState, at: string, error: { status: number; detail: string } | null) {
  if (state.status === 'none') return true;
  if (elapsed(state.last_request_at, at) >= activityRecordingStepMs) return true;
  if (!error) return false;
  const last = state.last_error;
  return !last || last.status !== error.status || last.detail !== error.detail || elapsed(last.at, at) >= activityRecordingStepMs;
}

export const scimActivityDecider: Decider<ScimActivityState, ScimActivityCommand, ScimActivityEvent> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    const { at, error } = command.data;
    return isWorthRecording(state, at, error) ? [{ type: 'ScimActivityRecorded', data: command.data }] : [];
  },
  evolve(state, event) {
    const { directory_sync_id, organization_domain, environment, at, error } = event.data;
    const previousError = state.status === 'recorded' ? state.last_error : null;
    return {
      status: 'recorded',
      directory_sync_id,
      organization_domain,
      environment,
      last_request_at: state.status === 'recorded' && state.last_request_at > at ? state.last_request_at : at,
      last_error: error ? { at, ...error } : previousError,
    };
  },
};
