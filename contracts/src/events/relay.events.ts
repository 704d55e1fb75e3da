import type { Environment } from '../common/environment.schema';

export interface RelayData {
  id: string;
  environment: Environment;
  /** The partner organization: users are relayed into it. */
  organization_id: string;
  partner_domain: string;
  /**
   * Domains of the organizations whose users the relay accepts. Absent from relays created before
   * it existed: they accept nobody until it is set.
   */
  source_organizations?: string[];
  /**
   * The id of each source organization (by domain) when the sources were set: the deletion of an
   * organization removes it from the sources only if it is the one named. Absent from sources set
   * before it existed (and for a domain missing from it): those go with their domain's deletion.
   */
  source_organization_ids?: Record<string, string>;
  partner_redirect_uri: string;
  jit: boolean;
  session_duration_minutes: number;
  inserted_at: string;
}

export type RelayEvent =
  | { type: 'RelayCreated'; data: { relay: RelayData; at: string } }
  | { type: 'RelayUpdated'; data: { relay: RelayData; at: string } }
  | { type: 'RelayDeleted'; data: { relay: RelayData; at: string } };

export type RelayCodeEvent =
  | {
      type: 'RelayCodeIssued';
      data: {
        /** SHA-256 of the one-time code; the code itself is only in the relay URI. */
        code_hash: string;
        relay_id: string;
        environment: Environment;
        from_user_id: string;
        from_organization_domain: string;
        partner_domain: string;
        /** The partner organization's id (the tenant of the code's events); absent from codes issued before it was recorded. */
        organization_id?: string;
        partner_user_id: string;
        partner_redirect_uri: string;
        session_duration_minutes: number;
        expires_at: string;
        at: string;
      };
    }
  | { type: 'RelayCodeRedeemed'; data: { code_hash: string; client_id: string | null; at: string } };
