import { catalogueError } from '@sesame/contracts';
import type { OperationInput, createTotpEnrollment, validateTotpEnrollment } from '@sesame/contracts';
import { created, failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { base32Decode, generateTotpSecret, hotp, otpauthUri, randomCounter } from './domain/one-time-password';
import { generateRecoveryCodes, recoveryCodeHash } from './domain/recovery-codes';
import type { TotpEnrollmentData } from './domain/totp-enrollment.decider';
import type { TotpDeps } from './totp.deps';
import { rejectedCode, toTotpEnrollment } from './totp-replies';
import type { ShownOnce } from './totp-replies';
import { activeScope, checkCode, enrollmentOf, smsOf, smsText } from './totp-scope';

export function createTotpEnrollmentHandler(deps: TotpDeps) {
  return async ({ params, body }: OperationInput<typeof createTotpEnrollment>, context: RequestContext) => {
    const { tenant: scope, connection, user, organization } = await activeScope(deps, params.org_domain, params.user_id, context);
    const { name: issuer, ...tenant } = scope;
    const secret = generateTotpSecret();
    const sms = connection.method === 'sms' ? smsOf(deps, user) : null;
    const first_counter = sms ? randomCounter() : null;
    const recoveryCodes = body.force_enroll ? generateRecoveryCodes() : undefined;
    const { state } = await deps.enrollmentAggregate.handle(
      user.id,
      {
        type: 'EnrollTotp',
        data: {
          ...tenant,
          user_id: user.id,
          email: user.email,
          method: connection.method,
          period: connection.expiry_in_seconds,
          encrypted_secret: deps.keyRing.seal(secret),
          first_counter,
          recovery_code_hashes: (recoveryCodes ?? []).map(recoveryCodeHash),
          force: body.force_enroll,
          at: deps.now().toISOString(),
        },
      },
      deps.runtime.metadata(context),
    );
    const enrollment = state.enrollment as TotpEnrollmentData;
    const shown: ShownOnce = { ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
    if (sms && first_counter !== null) {
      shown.first_verification_code = hotp(base32Decode(secret), first_counter);
      const text = smsText(deps, organization, shown.first_verification_code, enrollment.period);
      await sms.port.send({ to: sms.to, text, tags: ['totp', tenant.organization_domain] });
    } else {
      shown.uri = otpauthUri({ issuer, account: user.email, secret, periodSeconds: enrollment.period });
    }
    return created(toTotpEnrollment(enrollment, shown));
  };
}

export function validateTotpEnrollmentHandler(deps: TotpDeps) {
  return async ({ params, query }: OperationInput<typeof validateTotpEnrollment>, context: RequestContext) => {
    const { user } = await activeScope(deps, params.org_domain, params.user_id, context);
    const { enrollment } = await enrollmentOf(deps, user.id);
    const current = enrollment as TotpEnrollmentData;
    const now = deps.now();
    const step = checkCode(deps, current, query.code, current.first_counter, now.getTime());
    const { state, events } = await deps.enrollmentAggregate.handle(
      user.id,
      {
        type: 'ValidateTotpEnrollment',
        data: { user_id: user.id, enrollment_nb: current.enrollment_nb, step, at: now.toISOString() },
      },
      deps.runtime.metadata(context),
    );
    if (rejectedCode(events)) return failure(catalogueError('invalid_code'));
    return ok(toTotpEnrollment(state.enrollment as TotpEnrollmentData));
  };
}
