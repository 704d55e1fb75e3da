import type { AdminEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, Mailer, MessageTemplates, RequestContext } from '@sesame/platform';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import type { AdminCommand, AdminState, OnboardingTimes } from './domain/admin.decider';

export interface AdminsDeps {
  admins: Aggregate<AdminState, AdminCommand, AdminEvent>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  view: AggregateView<AdminState, AdminEvent>;
  organizations: Pick<OrganizationsDeps, 'view'>;
  mailer: Mailer;
  /** The wording of the invitation email, in the organization's language. */
  messages: MessageTemplates;
  /** Onboarding page the invitation links to; the token is added as `?token=`. */
  onboardingUrl: string;
  /** Lifetimes of links and onboarding sessions (configuration). */
  times: OnboardingTimes;
  /** The session cookie is `Secure` when the public URL is https. */
  secureCookie: boolean;
  now(): Date;
}
