import type { AdminEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { adminDecider } from '../domain/admin.decider';
import type { AdminCommand, AdminState } from '../domain/admin.decider';
import { adminStream } from '../projections/admins.projection';

/** An IT admin, named by its key (`adminKey`: organization id, environment and email). */
export const adminAggregate: AggregateType<AdminState, AdminCommand, AdminEvent> = { decider: adminDecider, stream: adminStream };
