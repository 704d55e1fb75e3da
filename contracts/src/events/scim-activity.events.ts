import type { Environment } from '../common/environment.schema';

/**
 * Stream `scimActivity-<directory sync id>`: what a directory sync's SCIM client did, for the
 * status the onboarding page shows. Recorded at most once a minute per directory sync and
 * replica, and at each new error. Not a webhook event.
 */
export type ScimActivityEvent = {
  type: 'ScimActivityRecorded';
  data: {
    directory_sync_id: string;
    /** The directory sync's organization (the tenant of its events); absent when it was recorded without it. */
    organization_id?: string;
    organization_domain: string;
    environment: Environment;
    /** When the request was answered. */
    at: string;
    /** The SCIM error it was answered, if it was refused. */
    error: { status: number; detail: string } | null;
  };
};
