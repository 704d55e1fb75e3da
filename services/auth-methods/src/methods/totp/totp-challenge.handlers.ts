import { randomUUID } from 'node:crypto';
import { catalogueError } from '@sesame/contracts';
import type { OperationInput, createTotpChallenge, validateTotpChallenge } from '@sesame/contracts';
import { created, failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { base32Decode, hotp, randomCounter } from './domain/one-time-password';
import { recoveryCodeHash } from './domain/recovery-codes';
import { requireEnrollment } from './domain/totp-enrollment.decider';
import type { TotpEnrollmentCommand, TotpEnrollmentData } from './domain/totp-enrollment.decider';
import type { TotpDeps } from './totp.deps';
import { rejectedCode, toTotpChallenge } from './totp-replies';
import { activeScope, checkCode, enrollmentOf, smsOf, smsText } from './totp-scope';

/**
 * A challenge: check (enrolled on the stream, a phone and an SMS transport for the SMS method)
 * → send the code → record the challenge, so a refused challenge never sent a text.
 */
export function createTotpChallengeHandler(deps: TotpDeps) {
  return async ({ params }: OperationInput<typeof createTotpChallenge>, context: RequestContext) => {
    const { tenant, user, organization } = await activeScope(deps, params.org_domain, params.user_id, context, true);
    const at = deps.now().toISOString();
    const challenge = (counter: number | null): TotpEnrollmentCommand => ({
      type: 'CreateTotpChallenge',
      data: { user_id: user.id, request_id: randomUUID(), counter, sent_at: counter === null ? null : at, at },
    });
    const { state } = await deps.enrollmentAggregate.execute(
      user.id,
      {
        check: ({ state: current }) => {
          const enrollment = requireEnrollment(current);
          return { enrollment, sms: enrollment.method === 'sms' ? smsOf(deps, user) : null };
        },
        act: async ({ enrollment, sms }) => {
          if (!sms) return challenge(null);
          const counter = randomCounter();
          const code = hotp(base32Decode(deps.keyRing.open(enrollment.encrypted_secret)), counter);
          await sms.port.send({
            to: sms.to,
            text: smsText(deps, organization, code, enrollment.period),
            tags: ['totp', tenant.organization_domain],
          });
          return challenge(counter);
        },
      },
      deps.runtime.metadata(context),
    );
    return created(toTotpChallenge(state));
  };
}

/** A code (or a recovery code) typed for the pending challenge: a one-time authorization code when it matches. */
export function validateTotpChallengeHandler(deps: TotpDeps) {
  return async ({ params, body }: OperationInput<typeof validateTotpChallenge>, context: RequestContext) => {
    const { tenant, user } = await activeScope(deps, params.org_domain, params.user_id, context, true);
    const current = await enrollmentOf(deps, user.id);
    const enrollment = current.enrollment as TotpEnrollmentData;
    const now = deps.now();
    const step = checkCode(deps, enrollment, body.code, current.challenge?.counter ?? null, now.getTime());
    const { state, events } = await deps.enrollmentAggregate.handle(
      user.id,
      {
        type: 'ValidateTotpChallenge',
        data: {
          user_id: user.id,
          enrollment_nb: enrollment.enrollment_nb,
          request_id: current.challenge?.request_id ?? null,
          step,
          recovery_code_hash: step === null ? recoveryCodeHash(body.code) : null,
          at: now.toISOString(),
        },
      },
      deps.runtime.metadata(context),
    );
    if (rejectedCode(events)) return failure(catalogueError('invalid_code'));
    const { code } = await deps.codes.issue(
      {
        environment: tenant.environment,
        organizationDomain: tenant.organization_domain,
        organizationId: tenant.organization_id,
        userId: user.id,
        method: 'totp',
        authenticatedAt: now,
        ...(context.meta.clientId ? { clientId: context.meta.clientId } : {}),
        ...(body.code_challenge ? { codeChallenge: body.code_challenge } : {}),
      },
      deps.runtime.metadata(context),
    );
    return ok(toTotpChallenge(state, code));
  };
}
