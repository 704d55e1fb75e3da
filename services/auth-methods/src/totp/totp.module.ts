import { randomUUID } from 'node:crypto';
import {
  catalogueError,
  createTotpChallenge,
  createTotpEnrollment,
  fieldError,
  getTotpConnection,
  subjects,
  updateTotpConnection,
  validateTotpChallenge,
  validateTotpEnrollment,
} from '@sesame/contracts';
import type { TotpChallenge, TotpConnection, TotpEnrollment, ConnectionTenant, User } from '@sesame/contracts';
import { AggregateView, created, fail, failure, handleCommand, ok } from '@sesame/platform';
import type { KeyRing, RecordedEvent, RequestContext, ServiceRuntime } from '@sesame/platform';
import type { AuthorizationCodes } from '../authorization-codes/authorization-codes';
import type { IdentityClient } from '../identity/identity-client';
import type { Organizations } from '../identity/organizations';
import {
  base32Decode,
  generateTotpSecret,
  hotp,
  matchTotpStep,
  otpauthUri,
  randomCounter,
  sameCode,
} from './domain/one-time-password';
import { generateRecoveryCodes, recoveryCodeHash } from './domain/recovery-codes';
import { defaultTotpConnection, totpConnectionDecider } from './domain/totp-connection.decider';
import { notEnrolledMessage, totpEnrollmentDecider } from './domain/totp-enrollment.decider';
import type { TotpEnrollmentCommand, TotpEnrollmentData, TotpEnrollmentState } from './domain/totp-enrollment.decider';
import {
  totpConnectionKey,
  totpConnectionStream,
  totpConnectionsView,
  totpEnrollmentStream,
  totpEnrollmentsView,
} from './projections/totp.projection';
import type { TotpConnectionsView } from './projections/totp.projection';

/** The platform's SMS port, as far as TOTP uses it. */
export interface SmsPort {
  send(message: { to: string; text: string; tags?: string[] }): Promise<unknown>;
}

export interface TotpDeps {
  identity: IdentityClient;
  organizations: Organizations;
  keyRing: KeyRing;
  /** A successful challenge answers a one-time authorization code, exchanged at /oauth/token. */
  codes: Pick<AuthorizationCodes, 'issue'>;
  /** Null until the platform's SMS port is wired: the SMS method then answers 503. */
  sms: SmsPort | null;
}

/** What an enrollment answer shows once, at creation: never stored in clear. */
interface ShownOnce {
  uri?: string;
  first_verification_code?: string;
  recovery_codes?: string[];
}

export const toTotpEnrollment = (enrollment: TotpEnrollmentData, shown: ShownOnce = {}): TotpEnrollment => ({
  email: enrollment.email,
  enrolled_totp_at: enrollment.enrolled_at,
  enrollment_totp_nb: enrollment.enrollment_nb,
  first_verification_code: shown.first_verification_code ?? null,
  last_recovery_acknowledgement_at: null,
  last_recovery_code_at: enrollment.last_recovery_code_at,
  recovery_codes: shown.recovery_codes?.join('\n') ?? null,
  uri: shown.uri ?? null,
  validated_enrollment_at: enrollment.validated_at,
});

const toTotpChallenge = (state: TotpEnrollmentState, code: string | null = null): TotpChallenge => {
  const challenge = state.challenge as NonNullable<TotpEnrollmentState['challenge']>;
  return {
    request_id: challenge.request_id,
    sent_at: challenge.sent_at,
    challenged_at: challenge.challenged_at,
    code,
    success: challenge.success,
    recovery_code_used: challenge.recovery_code_used,
  };
};

const rejectedCode = (events: RecordedEvent[]) => events.some((event) => event.type === 'TotpCodeRejected');

/** TOTP (SPEC.md sections 3-9): the connection of each organization, enrollments, challenges. */
export function registerTotp(runtime: ServiceRuntime, deps: TotpDeps): { connections: TotpConnectionsView } {
  const connections = runtime.projections.register(
    new AggregateView(totpConnectionsView, runtime.readModels, runtime.eventStore),
  );
  const enrollments = runtime.projections.register(
    new AggregateView(totpEnrollmentsView, runtime.readModels, runtime.eventStore),
  );

  /** The organization (404 when unknown) in the API key's environment; `name` issues the otpauth URI. */
  const tenantOf = async (domain: string, context: RequestContext): Promise<ConnectionTenant & { name: string }> => {
    const environment = context.meta.environment ?? fail(catalogueError('unauthorized'));
    const organization = await deps.organizations.get(domain, context.meta);
    return { organization_id: organization.id, organization_domain: organization.domain, environment, name: organization.name };
  };
  const connectionOf = async (tenant: ConnectionTenant): Promise<TotpConnection> =>
    (await connections.documents.get(totpConnectionKey(tenant.environment, tenant.organization_id)))?.connection ??
    defaultTotpConnection;
  const userOf = async (tenant: ConnectionTenant, id: string, context: RequestContext): Promise<User> => {
    const { organization_domain, environment } = tenant;
    const { user } = await deps.identity.call(
      subjects.identity.users.findById,
      { organization_domain, environment, id },
      context.meta,
    );
    return user ?? fail(catalogueError('resource_not_found'));
  };
  /** The organization, its active connection and the user: what every enrollment and challenge call needs. */
  const activeScope = async (domain: string, userId: string, context: RequestContext) => {
    const tenant = await tenantOf(domain, context);
    const [connection, user] = await Promise.all([connectionOf(tenant), userOf(tenant, userId, context)]);
    if (!connection.active) fail(catalogueError('inactive_totp'));
    return { tenant, connection, user };
  };
  const enrollmentOf = async (userId: string): Promise<TotpEnrollmentState> => {
    const state = await enrollments.documents.get(userId);
    if (!state?.enrollment) fail(fieldError('user_id', notEnrolledMessage));
    return state;
  };
  const runEnrollment = (userId: string, command: TotpEnrollmentCommand, context: RequestContext) =>
    handleCommand(
      runtime.commandDeps<TotpEnrollmentState>(),
      totpEnrollmentDecider,
      totpEnrollmentStream(userId),
      command,
      runtime.metadata(context),
    );
  /** The time step or counter whose code was typed (the secret is decrypted only here). */
  const checkCode = (enrollment: TotpEnrollmentData, code: string, counter: number | null, nowMs: number): number | null => {
    const secret = base32Decode(deps.keyRing.open(enrollment.encrypted_secret));
    if (enrollment.method === 'totp_mobile_app') return matchTotpStep(secret, code, nowMs, enrollment.period);
    return counter !== null && sameCode(hotp(secret, counter), code) ? counter : null;
  };
  const smsText = (tenant: ConnectionTenant, code: string, period: number) =>
    `${code} is your ${tenant.organization_domain} verification code. It expires in ${Math.round(period / 60) || 1} min.`;
  const sendSms = async (to: string, text: string, tenant: ConnectionTenant) => {
    if (!deps.sms) fail(catalogueError('service_unavailable'));
    await deps.sms.send({ to, text, tags: ['totp', tenant.organization_domain] });
  };
  const phoneOf = (user: User): string =>
    user.phone_number ?? fail(fieldError('phone_number', 'is required to send a code by SMS'));

  runtime.router.operation(getTotpConnection, async ({ params }, context) =>
    ok(await connectionOf(await tenantOf(params.org_domain, context))),
  );

  runtime.router.operation(updateTotpConnection, async ({ params, body }, context) => {
    const { name: _name, ...tenant } = await tenantOf(params.org_domain, context);
    const { state } = await handleCommand(
      runtime.commandDeps(),
      totpConnectionDecider,
      totpConnectionStream(tenant.environment, tenant.organization_id),
      { type: 'UpdateTotpConnection', data: { tenant, changes: body, at: new Date().toISOString() } },
      runtime.metadata(context),
    );
    return ok(state.connection);
  });

  runtime.router.operation(createTotpEnrollment, async ({ params, body }, context) => {
    const { tenant: scope, connection, user } = await activeScope(params.org_domain, params.user_id, context);
    const { name: issuer, ...tenant } = scope;
    const secret = generateTotpSecret();
    const sms = connection.method === 'sms';
    const first_counter = sms ? randomCounter() : null;
    if (sms) phoneOf(user);
    const recoveryCodes = body.force_enroll ? generateRecoveryCodes() : undefined;
    const { state } = await runEnrollment(
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
          at: new Date().toISOString(),
        },
      },
      context,
    );
    const enrollment = state.enrollment as TotpEnrollmentData;
    const shown: ShownOnce = { ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
    if (first_counter !== null) {
      shown.first_verification_code = hotp(base32Decode(secret), first_counter);
      await sendSms(phoneOf(user), smsText(tenant, shown.first_verification_code, enrollment.period), tenant);
    } else {
      shown.uri = otpauthUri({ issuer, account: user.email, secret, periodSeconds: enrollment.period });
    }
    return created(toTotpEnrollment(enrollment, shown));
  });

  runtime.router.operation(validateTotpEnrollment, async ({ params, query }, context) => {
    const { user } = await activeScope(params.org_domain, params.user_id, context);
    const { enrollment } = await enrollmentOf(user.id);
    const current = enrollment as TotpEnrollmentData;
    const now = new Date();
    const step = checkCode(current, query.code, current.first_counter, now.getTime());
    const { state, events } = await runEnrollment(
      user.id,
      {
        type: 'ValidateTotpEnrollment',
        data: { user_id: user.id, enrollment_nb: current.enrollment_nb, step, at: now.toISOString() },
      },
      context,
    );
    if (rejectedCode(events)) return failure(catalogueError('invalid_code'));
    return ok(toTotpEnrollment(state.enrollment as TotpEnrollmentData));
  });

  runtime.router.operation(createTotpChallenge, async ({ params }, context) => {
    const { tenant, user } = await activeScope(params.org_domain, params.user_id, context);
    const { enrollment } = await enrollmentOf(user.id);
    const current = enrollment as TotpEnrollmentData;
    const at = new Date().toISOString();
    let counter: number | null = null;
    if (current.method === 'sms') {
      counter = randomCounter();
      const code = hotp(base32Decode(deps.keyRing.open(current.encrypted_secret)), counter);
      await sendSms(phoneOf(user), smsText(tenant, code, current.period), tenant);
    }
    const { state } = await runEnrollment(
      user.id,
      {
        type: 'CreateTotpChallenge',
        data: { user_id: user.id, request_id: randomUUID(), counter, sent_at: counter === null ? null : at, at },
      },
      context,
    );
    return created(toTotpChallenge(state));
  });

  runtime.router.operation(validateTotpChallenge, async ({ params, body }, context) => {
    const { tenant, user } = await activeScope(params.org_domain, params.user_id, context);
    const current = await enrollmentOf(user.id);
    const enrollment = current.enrollment as TotpEnrollmentData;
    const now = new Date();
    const step = checkCode(enrollment, body.code, current.challenge?.counter ?? null, now.getTime());
    const { state, events } = await runEnrollment(
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
      context,
    );
    if (rejectedCode(events)) return failure(catalogueError('invalid_code'));
    const { code } = await deps.codes.issue(
      {
        environment: tenant.environment,
        organizationDomain: tenant.organization_domain,
        userId: user.id,
        method: 'totp',
        authenticatedAt: now,
        ...(context.meta.clientId ? { clientId: context.meta.clientId } : {}),
        ...(body.code_challenge ? { codeChallenge: body.code_challenge } : {}),
      },
      runtime.metadata(context),
    );
    return ok(toTotpChallenge(state, code));
  });
  return { connections };
}
