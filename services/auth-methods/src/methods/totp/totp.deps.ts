import type { TotpEnrollmentEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, KeyRing, MessageTemplates } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { AuthorizationCodes } from '../../core/authorization-codes/authorization-codes';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import type { TotpEnrollmentCommand, TotpEnrollmentState } from './domain/totp-enrollment.decider';
import type { TotpConnectionsView } from './projections/totp.projection';

/** The platform's SMS port, as far as TOTP uses it. */
export interface SmsPort {
  send(message: { to: string; text: string; tags?: string[] }): Promise<unknown>;
}

/** What `registerTotp` is given. */
export interface TotpServices {
  identity: IdentityClient;
  organizations: Organizations;
  keyRing: KeyRing;
  /** A successful challenge answers a one-time authorization code, exchanged at /oauth/token. */
  codes: Pick<AuthorizationCodes, 'issue'>;
  /** Null until the platform's SMS port is wired: the SMS method then answers 503. */
  sms: SmsPort | null;
}

/** What the TOTP handlers share. */
export interface TotpDeps extends TotpServices {
  runtime: ServiceRuntime;
  connections: TotpConnectionsView;
  enrollments: AggregateView<TotpEnrollmentState, TotpEnrollmentEvent>;
  enrollmentAggregate: Aggregate<TotpEnrollmentState, TotpEnrollmentCommand, TotpEnrollmentEvent>;
  /** The wording of the texted codes, in the organization's language. */
  messages: MessageTemplates;
  now(): Date;
}
