import type { AdminEvent } from '@sesame/contracts';
import type { AggregateView, CommandHandlerDeps, EventMetadata, Mailer, RequestContext } from '@sesame/platform';
import type { OrganizationsEnv } from '../organizations/organizations.env';
import type { AdminState } from './domain/admin.decider';

export interface AdminsEnv {
  commandDeps: CommandHandlerDeps<AdminState>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  view: AggregateView<AdminState, AdminEvent>;
  organizations: Pick<OrganizationsEnv, 'view'>;
  mailer: Mailer;
  /** Onboarding page the invitation links to; the token is added as `?token=`. */
  onboardingUrl: string;
  invitationTtlMs: number;
  now(): Date;
}
