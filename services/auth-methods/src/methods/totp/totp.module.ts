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
import type { ConnectionTenant, Organization, TotpChallenge, TotpConnection, TotpEnrollment, User } from '@sesame/contracts';
import {
  Aggregate,
  AggregateView,
  created,
  fail,
  failure,
  handleCommand,
  ok,
  renderMessage,
  shippedMessageTemplates,
} from '@sesame/platform';
import type { KeyRing, RecordedEvent, RequestContext, ServiceRuntime } from '@sesame/platform';
import type { AuthorizationCodes } from '../../core/authorization-codes/authorization-codes';
import { requireAuthnConnection } from '../../core/identity/authn-connections';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
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
import { notEnrolledMessage, requireEnrollment, totpEnrollmentDecider } from './domain/totp-enrollment.decider';
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
  enrolled_at: enrollment.enrolled_at,
  enrollment_totp_nb: enrollment.enrollment_nb,
  enrollment_nb: enrollment.enrollment_nb,
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
  const messages = shippedMessageTemplates();

  /** The organization (404 when unknown) in the API key's environment; `name` issues the otpauth URI. */
  const tenantOf = async (domain: string, context: RequestContext): Promise<ConnectionTenant & { name: string }> =>
    tenantFrom(await deps.organizations.get(domain, context.meta), context);
  const tenantFrom = (organization: Organization, context: RequestContext): ConnectionTenant & { name: string } => {
    const environment = context.meta.environment ?? fail(catalogueError('unauthorized'));
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
  /**
   * The organization, its active connection and the user: what every enrollment and challenge call
   * needs; a challenge (a sign-in) also needs the organization to allow `totp`.
   */
  const activeScope = async (domain: string, userId: string, context: RequestContext, signIn = false) => {
    const organization = await deps.organizations.get(domain, context.meta);
    if (signIn) requireAuthnConnection(organization, 'totp');
    const tenant = tenantFrom(organization, context);
    const [connection, user] = await Promise.all([connectionOf(tenant), userOf(tenant, userId, context)]);
    if (!connection.active) fail(catalogueError('inactive_totp'));
    return { tenant, connection, user, organization };
  };
  const enrollmentOf = async (userId: string): Promise<TotpEnrollmentState> => {
    const state = await enrollments.documents.get(userId);
    if (!state?.enrollment) fail(fieldError('user_id', notEnrolledMessage));
    return state;
  };
  const enrollmentsOf = new Aggregate(runtime.commandDeps<TotpEnrollmentState>(), {
    decider: totpEnrollmentDecider,
    stream: totpEnrollmentStream,
  });
  const runEnrollment = (userId: string, command: TotpEnrollmentCommand, context: RequestContext) =>
    enrollmentsOf.handle(userId, command, runtime.metadata(context));
  /** The time step or counter whose code was typed (the secret is decrypted only here). */
  const checkCode = (enrollment: TotpEnrollmentData, code: string, counter: number | null, nowMs: number): number | null => {
    const secret = base32Decode(deps.keyRing.open(enrollment.encrypted_secret));
    if (enrollment.method === 'totp_mobile_app') return matchTotpStep(secret, code, nowMs, enrollment.period);
    return counter !== null && sameCode(hotp(secret, counter), code) ? counter : null;
  };
  /** The text of a code, in the organization's language. */
  const smsText = (organization: Organization, code: string, period: number) =>
    renderMessage(messages, 'totp-code', organization, {
      organization: organization.domain,
      code,
      valid_for: { durationMs: period * 1_000 },
    }).text;
  /** Where and how a code is texted to the user: a phone number and an SMS transport, checked before anything is done. */
  const smsOf = (user: User): { to: string; port: SmsPort } => {
    const to = user.phone_number ?? fail(fieldError('phone_number', 'is required to send a code by SMS'));
    return { to, port: deps.sms ?? fail(catalogueError('service_unavailable')) };
  };

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
    const { tenant: scope, connection, user, organization } = await activeScope(params.org_domain, params.user_id, context);
    const { name: issuer, ...tenant } = scope;
    const secret = generateTotpSecret();
    const sms = connection.method === 'sms' ? smsOf(user) : null;
    const first_counter = sms ? randomCounter() : null;
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
    if (sms && first_counter !== null) {
      shown.first_verification_code = hotp(base32Decode(secret), first_counter);
      const text = smsText(organization, shown.first_verification_code, enrollment.period);
      await sms.port.send({ to: sms.to, text, tags: ['totp', tenant.organization_domain] });
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

  /**
   * A challenge: check (enrolled on the stream, a phone and an SMS transport for the SMS method)
   * → send the code → record the challenge, so a refused challenge never sent a text.
   */
  runtime.router.operation(createTotpChallenge, async ({ params }, context) => {
    const { tenant, user, organization } = await activeScope(params.org_domain, params.user_id, context, true);
    const at = new Date().toISOString();
    const challenge = (counter: number | null): TotpEnrollmentCommand => ({
      type: 'CreateTotpChallenge',
      data: { user_id: user.id, request_id: randomUUID(), counter, sent_at: counter === null ? null : at, at },
    });
    const { state } = await enrollmentsOf.execute(
      user.id,
      {
        check: ({ state: current }) => {
          const enrollment = requireEnrollment(current);
          return { enrollment, sms: enrollment.method === 'sms' ? smsOf(user) : null };
        },
        act: async ({ enrollment, sms }) => {
          if (!sms) return challenge(null);
          const counter = randomCounter();
          const code = hotp(base32Decode(deps.keyRing.open(enrollment.encrypted_secret)), counter);
          await sms.port.send({
            to: sms.to,
            text: smsText(organization, code, enrollment.period),
            tags: ['totp', tenant.organization_domain],
          });
          return challenge(counter);
        },
      },
      runtime.metadata(context),
    );
    return created(toTotpChallenge(state));
  });

  runtime.router.operation(validateTotpChallenge, async ({ params, body }, context) => {
    const { tenant, user } = await activeScope(params.org_domain, params.user_id, context, true);
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
