import { randomUUID } from 'node:crypto';
import { subjects } from '@sesame/contracts';
import type {
  Environment,
  OperationInput,
  Organization,
  PasswordConnectionSettings,
  RpcMeta,
  createPasswordChallenge,
} from '@sesame/contracts';
import { DomainError, environmentOf, ok } from '@sesame/platform';
import type { EventMetadata, RequestContext } from '@sesame/platform';
import { answerFloor } from '../../core/answer-floor';
import { attemptTooSoon, nextAttemptAt } from './domain/password-attempts.decider';
import type { PasswordState } from './domain/password.decider';
import { passwordProblems } from './domain/password-policy';
import { issuePasswordCode } from './password-sign-in.handlers';
import { passwordAggregate, passwordAttemptsAggregate, passwordAttemptsKey } from './password.aggregates';
import { connectionOf, ownerMetadata, rpcMeta, signInOrganization, tenantMetadata } from './password.deps';
import type { PasswordDeps, PasswordOwner } from './password.deps';

type Challenge = OperationInput<typeof createPasswordChallenge>['body'];
type StoredPassword = Extract<PasswordState, { status: 'set' }>;
/** The id of a password never set (no user has it): what a challenge reads for an email without an active user. */
const nobody = 'nobody';

const refused = (error: string) => ({
  code: null,
  error,
  expired_at: null,
  password_id: null,
  renew_password: false,
  request_id: randomUUID(),
  user_id: null,
  'valid?': false,
});

/**
 * A refused challenge is answered no sooner than this after it started. An unknown email does
 * the known one's work (a dummy hash, a password read) but not all of it: the user it would
 * find, its bytes on the wire. That came to half a millisecond here (1.5 in a CI run), which a
 * few dozen pairs of guesses could tell apart.
 */
export const passwordRefusalFloorMs = 100;

/**
 * `POST /api/v2/password-challenge`. Failures are counted per email (known or not) and delay,
 * then lock, the next attempts; an unknown email or a user without password is checked against
 * a dummy hash, and every refusal waits for the same floor, so the answer and its timing do not
 * tell whether the user exists. The outcome is answered only once recorded where the schedule
 * allows it (parallel guesses included).
 */
export function createPasswordChallengeHandler(deps: PasswordDeps) {
  return async ({ body }: OperationInput<typeof createPasswordChallenge>, context: RequestContext) => {
    const floor = answerFloor(passwordRefusalFloorMs);
    const refuse = async (error: string) => {
      await floor.reached();
      return ok(refused(error));
    };
    const environment = environmentOf(context.meta);
    const meta = rpcMeta(context, environment);
    // With the organization named, what the challenge reads starts with the organization's check
    // (its connection, keyed by the organization's id, once the check answers); read again under the
    // domain identity answers if it is another one (the attempts are counted under it).
    const lookup = signInOrganization(deps, body.user_email, body.org_domain, meta, 'password');
    const named = body.org_domain ? challengeState(deps, environment, body.org_domain, lookup, body.user_email, meta) : null;
    named?.catch(() => undefined);
    const organization = await lookup;
    const { attemptsKey, connection, attempts, user, stored } = await (named && organization.domain === body.org_domain
      ? named
      : challengeState(deps, environment, organization.domain, lookup, body.user_email, meta));
    if (!connection.active) return refuse('inactive_password_connection');
    if (deps.now().getTime() < nextAttemptAt(attempts.state)) return refuse('too_many_attempts');
    const verified =
      stored?.status === 'set'
        ? await deps.hasher.verify(stored, body.plain_text)
        : await deps.hasher.verifyDummy(body.plain_text);
    const tenant = { organization_id: organization.id, environment };
    const record = async (type: 'RecordPasswordFailure' | 'RecordPasswordSuccess') => {
      const command = { type, data: { at: deps.now().toISOString() } };
      try {
        // Decided on the attempts read before the check (the append refuses them if another attempt was recorded since).
        await deps
          .aggregate(passwordAttemptsAggregate)
          .handle(attemptsKey, command, tenantMetadata(deps, context, tenant), { loaded: attempts });
        return true;
      } catch (error) {
        if (error instanceof DomainError && error.error === attemptTooSoon) return false;
        throw error;
      }
    };
    if (!verified || !user || stored?.status !== 'set')
      return refuse((await record('RecordPasswordFailure')) ? 'invalid_credentials' : 'too_many_attempts');
    if (!(await record('RecordPasswordSuccess'))) return refuse('too_many_attempts');
    const owner = { user, organizationId: organization.id };
    await rehashIfStale(deps, stored, body.plain_text, connection, ownerMetadata(deps, context, owner));
    return ok(await successOf(deps, body, owner, stored, connection, context));
  };
}

/**
 * What a challenge reads, at once: the email's attempts, the user and (once the user is found,
 * active) its password under `domain`, and the organization's password connection once `lookup`
 * names the organization.
 */
async function challengeState(
  deps: PasswordDeps,
  environment: Environment,
  domain: string,
  lookup: Promise<Organization>,
  email: string,
  meta: RpcMeta,
) {
  const attemptsKey = passwordAttemptsKey(environment, domain, email);
  const userAndPassword = async () => {
    const { user } = await deps.identity.call(
      subjects.identity.users.findByEmail,
      { organization_domain: domain, environment, email },
      meta,
    );
    // Without an active user, a password that exists nowhere is read all the same: the answer
    // must not come one store read sooner for an unknown email.
    const { state } = await deps.aggregate(passwordAggregate).load(user?.active ? user.id : nobody);
    return { user, stored: user?.active ? state : null };
  };
  const [connection, attempts, { user, stored }] = await Promise.all([
    lookup.then((organization) => connectionOf(deps, environment, organization)),
    deps.aggregate(passwordAttemptsAggregate).load(attemptsKey),
    userAndPassword(),
  ]);
  return { attemptsKey, connection, attempts, user, stored };
}

/** The pepper rotated since the password was hashed: hash it again with the current one. */
async function rehashIfStale(
  deps: PasswordDeps,
  stored: StoredPassword,
  plainText: string,
  connection: PasswordConnectionSettings,
  metadata: EventMetadata,
) {
  const epoch = deps.hasher.epochOf(deps.now(), connection.pepper_rotation_period);
  if (deps.hasher.isCurrent(stored, epoch)) return;
  await deps
    .aggregate(passwordAggregate)
    .handle(
      stored.user_id,
      { type: 'RehashPassword', data: { ...(await deps.hasher.hash(plainText, epoch)), at: deps.now().toISOString() } },
      metadata,
    );
}

/** A one-time authorization code, or a password code when the password no longer meets the connection's rules. */
async function successOf(
  deps: PasswordDeps,
  body: Challenge,
  owner: PasswordOwner,
  stored: StoredPassword,
  connection: PasswordConnectionSettings,
  context: RequestContext,
) {
  const { user, organizationId } = owner;
  const renew = passwordProblems(body.plain_text, connection, deps.lists, [user.email], false).length > 0;
  const answer = { error: null, password_id: stored.password_id, renew_password: renew, user_id: user.id, 'valid?': true };
  if (renew) {
    const { code, expiresAt, requestId } = await issuePasswordCode(deps, owner, 'renew', body.redirect_uri ?? null, context);
    return { ...answer, code, expired_at: expiresAt, request_id: requestId };
  }
  const issued = await deps.authorizationCodes.issue(
    {
      environment: user.__environment__,
      organizationDomain: user.__domain__,
      organizationId,
      userId: user.id,
      method: 'password',
      ...(body.redirect_uri ? { redirectUri: body.redirect_uri } : {}),
      ...(context.meta.clientId ? { clientId: context.meta.clientId } : {}),
      ...(body.nonce ? { nonce: body.nonce } : {}),
      ...(body.code_challenge ? { codeChallenge: body.code_challenge } : {}),
    },
    deps.metadata(context),
  );
  return { ...answer, code: issued.code, expired_at: issued.expires_at, request_id: randomUUID() };
}
