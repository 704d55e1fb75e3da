import {
  createTotpChallenge,
  createTotpEnrollment,
  getTotpConnection,
  updateTotpConnection,
  validateTotpChallenge,
  validateTotpEnrollment,
} from '@sesame/contracts';
import { Aggregate, AggregateView, shippedMessageTemplates } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { totpEnrollmentDecider } from './domain/totp-enrollment.decider';
import type { TotpEnrollmentState } from './domain/totp-enrollment.decider';
import { totpConnectionsView, totpEnrollmentStream, totpEnrollmentsView } from './projections/totp.projection';
import type { TotpConnectionsView } from './projections/totp.projection';
import { createTotpChallengeHandler, validateTotpChallengeHandler } from './totp-challenge.handlers';
import { getTotpConnectionHandler, updateTotpConnectionHandler } from './totp-connection.handlers';
import type { TotpDeps, TotpServices } from './totp.deps';
import { createTotpEnrollmentHandler, validateTotpEnrollmentHandler } from './totp-enrollment.handlers';

/** TOTP (SPEC.md sections 3-9): the connection of each organization, enrollments, challenges. */
export function registerTotp(runtime: ServiceRuntime, services: TotpServices): { connections: TotpConnectionsView } {
  const { projections, readModels, eventStore, router } = runtime;
  const deps: TotpDeps = {
    ...services,
    runtime,
    connections: projections.register(new AggregateView(totpConnectionsView, readModels, eventStore)),
    enrollments: projections.register(new AggregateView(totpEnrollmentsView, readModels, eventStore)),
    enrollmentAggregate: new Aggregate(runtime.commandDeps<TotpEnrollmentState>(), {
      decider: totpEnrollmentDecider,
      stream: totpEnrollmentStream,
    }),
    messages: shippedMessageTemplates(),
    now: () => new Date(),
  };
  router.operation(getTotpConnection, getTotpConnectionHandler(deps));
  router.operation(updateTotpConnection, updateTotpConnectionHandler(deps));
  router.operation(createTotpEnrollment, createTotpEnrollmentHandler(deps));
  router.operation(validateTotpEnrollment, validateTotpEnrollmentHandler(deps));
  router.operation(createTotpChallenge, createTotpChallengeHandler(deps));
  router.operation(validateTotpChallenge, validateTotpChallengeHandler(deps));
  return { connections: deps.connections };
}
