import type { Environment } from '../common/environment.schema';

/** The settings of a webhook, as its events carry them. */
export interface WebhookSettings {
  name: string;
  active: boolean;
  event_codes: string[];
  target_url: string;
  /** The organization whose events it receives; null (or absent in events recorded before scoping existed): every one. */
  organization_domain?: string | null;
}

/** A signing key, AES-256-GCM encrypted with the configured key ring; `expires_at` null: current. */
export interface SealedSignatureKey {
  sealed: string;
  expires_at: string | null;
}

export type WebhookDomainEvent =
  | {
      type: 'WebhookCreated';
      data: WebhookSettings & {
        id: string;
        environment: Environment;
        /** The id of the organization it is scoped to (null: every one); absent from webhooks created before it was recorded. */
        organization_id?: string | null;
        signature_key: SealedSignatureKey;
        at: string;
      };
    }
  /** `organization_id`: as on creation, when `changes` scope it anew. */
  | { type: 'WebhookUpdated'; data: { changes: Partial<WebhookSettings>; organization_id?: string | null; at: string } }
  /** A new signing key; the previous one keeps signing (alongside) until `previous_expires_at`. */
  | { type: 'WebhookSignatureKeyRotated'; data: { signature_key: SealedSignatureKey; previous_expires_at: string; at: string } }
  /** `reason` organization_deleted: removed with the organization it was scoped to. */
  | { type: 'WebhookDeleted'; data: { at: string; reason?: 'organization_deleted' } };
