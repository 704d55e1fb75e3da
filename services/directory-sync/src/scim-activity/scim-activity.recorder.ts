import { errorCatalogue } from '@sesame/contracts';
import type { AppError, RpcReply, ScimActivityEvent } from '@sesame/contracts';
import type { Aggregate, EventMetadata, Logger } from '@sesame/platform';
import type { DirectorySyncsView } from '../directory-syncs/directory-syncs.deps';
import { activityRecordingStepMs } from './domain/scim-activity.decider';
import type { ScimActivityCommand, ScimActivityState } from './domain/scim-activity.decider';

export interface ScimActivityRecorderDeps {
  activity: Aggregate<ScimActivityState, ScimActivityCommand, ScimActivityEvent>;
  directories: DirectorySyncsView;
  metadata(): EventMetadata;
  logger: Logger;
  now(): Date;
}

/** The status and detail a refused SCIM request was answered. */
export function scimErrorOf(error: AppError): { status: number; detail: string } {
  if (error.kind === 'scim') return { status: error.status, detail: error.detail };
  if (error.kind === 'error')
    return { status: errorCatalogue[error.code].status, detail: error.message ?? errorCatalogue[error.code].message };
  if (error.kind === 'fields') return { status: 422, detail: Object.keys(error.fields).join(', ') };
  return { status: 400, detail: error.description };
}

/** Directory syncs this replica remembers recording; forgotten all at once past this many. */
const rememberedDirectories = 10_000;

/**
 * Records what SCIM clients do (the status the onboarding page shows), beside the SCIM request
 * path: a reply is observed after it is sent on, recorded without being awaited, and a failure
 * to record is logged, never answered. A successful request is recorded at most once a minute
 * per directory sync on this replica (no store access in between); refused ones go to the decider,
 * which records each new error.
 */
export class ScimActivityRecorder {
  private readonly lastRecorded = new Map<string, number>();

  constructor(private readonly deps: ScimActivityRecorderDeps) {}

  observe(directoryId: string | undefined, reply: RpcReply): void {
    if (!directoryId) return;
    const now = this.deps.now().getTime();
    const error = reply.ok ? null : scimErrorOf(reply.error);
    const last = this.lastRecorded.get(directoryId);
    if (!error && last !== undefined && now - last < activityRecordingStepMs) return;
    if (this.lastRecorded.size >= rememberedDirectories) this.lastRecorded.clear();
    this.lastRecorded.set(directoryId, now);
    this.record(directoryId, new Date(now).toISOString(), error).catch((err: unknown) =>
      this.deps.logger.warn({ err, directorySyncId: directoryId }, 'SCIM activity could not be recorded'),
    );
  }

  private async record(directoryId: string, at: string, error: { status: number; detail: string } | null): Promise<void> {
    const [document] = await this.deps.directories.documents.find({ 'directory_sync.id': directoryId }, { limit: 1 });
    if (document?.status !== 'active') return;
    const { organization_id, organization_domain, environment } = document.directory_sync;
    const owner = organization_id ? { organization_id } : {};
    const data = { directory_sync_id: directoryId, ...owner, organization_domain, environment, at, error };
    await this.deps.activity.handle(directoryId, { type: 'RecordScimActivity', data }, { ...this.deps.metadata(), environment });
  }
}
