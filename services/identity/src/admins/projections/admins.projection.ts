import type { AdminEvent, Environment } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { adminDecider } from '../domain/admin.decider';
import type { AdminState } from '../domain/admin.decider';

export const adminStreamCategory = 'admin';
/** An admin is identified by email within an organization (and environment). */
export const adminKey = (organizationId: string, environment: Environment, email: string) =>
  `${organizationId}:${environment}:${email.trim().toLowerCase()}`;
export const adminStream = (key: string) => streamName(adminStreamCategory, key);

/** `admins_v2`: live admins, keyed by organization id, environment and email (v2: link state and onboarding session). */
export const adminsView: AggregateViewDefinition<AdminState, AdminEvent> = {
  name: 'admins',
  version: 2,
  category: adminStreamCategory,
  decider: adminDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [['scope', 'invited_at'], ['id'], ['organization_id']],
};
