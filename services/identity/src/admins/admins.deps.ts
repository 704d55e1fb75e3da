import type { AdminEvent } from '@sesame/contracts';
import { AggregateView, shippedMessageTemplates } from '@sesame/platform';
import type { Aggregate, EventMetadata, Mailer, MessageTemplates, RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { IdentityConfig } from '../config';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import { adminAggregate } from './commands/admin.aggregate';
import type { AdminCommand, AdminState, OnboardingTimes } from './domain/admin.decider';
import { adminsView } from './projections/admins.projection';

export interface AdminsDeps {
  admins: Aggregate<AdminState, AdminCommand, AdminEvent>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  view: AggregateView<AdminState, AdminEvent>;
  organizations: Pick<OrganizationsDeps, 'view' | 'organizations'>;
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

const second = 1_000;

/** The admins' dependencies in a service runtime, with the lifetimes and URLs of its configuration. */
export function adminsDeps(
  runtime: ServiceRuntime,
  config: IdentityConfig,
  organizations: Pick<OrganizationsDeps, 'view' | 'organizations'>,
  mailer: Mailer,
): AdminsDeps {
  return {
    admins: runtime.aggregate(adminAggregate),
    metadata: (context) => runtime.metadata(context),
    view: runtime.projections.register(new AggregateView(adminsView, runtime.readModels, runtime.eventStore)),
    organizations,
    mailer,
    messages: shippedMessageTemplates(),
    onboardingUrl: `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/onboarding/admin-invitation`,
    times: {
      link_ttl_ms: config.SESAME_INVITATION_LINK_TTL_SECONDS * second,
      session_idle_ms: config.SESAME_ONBOARDING_IDLE_SECONDS * second,
      session_max_ms: config.SESAME_ONBOARDING_MAX_SECONDS * second,
    },
    secureCookie: new URL(config.SESAME_PUBLIC_URL).protocol === 'https:',
    now: () => new Date(),
  };
}
