import type { Environment, TotpConnectionEvent, TotpEnrollmentEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateView, AggregateViewDefinition } from '@sesame/platform';
import { totpConnectionDecider } from '../domain/totp-connection.decider';
import type { TotpConnectionState } from '../domain/totp-connection.decider';
import { totpEnrollmentDecider } from '../domain/totp-enrollment.decider';
import type { TotpEnrollmentState } from '../domain/totp-enrollment.decider';

export const totpConnectionKey = (environment: Environment, organizationId: string) => `${environment}:${organizationId}`;
export const totpEnrollmentStream = (userId: string) => streamName('totpEnrollment', userId);

/** `totp_connections_v2`: one document per organization and environment whose connection was changed. */
export const totpConnectionsView: AggregateViewDefinition<TotpConnectionState, TotpConnectionEvent> = {
  name: 'totp_connections',
  version: 2,
  category: 'totpConnection',
  decider: totpConnectionDecider,
  isVisible: (state) => state.tenant !== null,
};

/** `totp_enrollments_v1`: one document per enrolled user (secret still encrypted). */
export const totpEnrollmentsView: AggregateViewDefinition<TotpEnrollmentState, TotpEnrollmentEvent> = {
  name: 'totp_enrollments',
  version: 1,
  category: 'totpEnrollment',
  decider: totpEnrollmentDecider,
  isVisible: (state) => state.enrollment !== null,
};

export type TotpConnectionsView = AggregateView<TotpConnectionState, TotpConnectionEvent>;
