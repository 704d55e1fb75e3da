import { randomUUID } from 'node:crypto';
import { catalogueError, fieldError, subjects } from '@sesame/contracts';
import type {
  Environment,
  OperationInput,
  PasswordConnectionSettings,
  Scope,
  User,
  createPassword,
  createPasswordRequest,
} from '@sesame/contracts';
import { created, environmentOf, fail, hashSecret, randomSecret, renderMessage } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { noSoonerThan } from '../../core/answer-floor';
import { requireAuthnConnection } from '../../core/identity/authn-connections';
import { answersMailedSecrets, provenAddress, stillHasProvenAddress } from '../../core/identity/mailbox-proof';
import { provenEmailOf } from './domain/password-code.decider';
import type { PasswordState } from './domain/password.decider';
import { passwordProblems, policyMessages } from './domain/password-policy';
import { passwordAggregate, passwordCodeAggregate } from './password.aggregates';
import { connectionOf, ownerMetadata, rpcMeta, signInOrganization } from './password.deps';
import type { PasswordDeps, PasswordOwner } from './password.deps';

const resetCodeTtlMs = 3_600_000;
const renewCodeTtlMs = 600_000;
const inactive = () => fieldError('org_domain', 'password sign-in is inactive for this organization');

/**
 * Refuses a password that breaks the connection's rules, naming each reason on `plain_text`;
 * a password the shipped lists accept is then looked up in the breach service when configured.
 */
export async function checkPolicy(deps: PasswordDeps, plainText: string, connection: PasswordConnectionSettings, email: string) {
  const problems = passwordProblems(plainText, connection, deps.lists, [email]);
  if (problems.length === 0 && (await deps.breachRange?.isBreached(plainText))) problems.push(policyMessages.breached);
  if (problems.length > 0) fail({ kind: 'fields', fields: { plain_text: problems } });
}

/**
 * Hashes with the pepper of the current period and stores it as the user's password. A password
 * already in place is replaced only when `mayReplace` (401 otherwise, decided with the stream's revision).
 */
export async function storePassword(
  deps: PasswordDeps,
  { user, organizationId }: PasswordOwner,
  plainText: string,
  connection: PasswordConnectionSettings,
  context: RequestContext,
  mayReplace: boolean,
) {
  const epoch = deps.hasher.epochOf(deps.now(), connection.pepper_rotation_period);
  const hashed = await deps.hasher.hash(plainText, epoch);
  const { state } = await deps.aggregate(passwordAggregate).handle(
    user.id,
    {
      type: 'SetPassword',
      data: {
        ...hashed,
        password_id: randomUUID(),
        user_id: user.id,
        environment: user.__environment__,
        organization_domain: user.__domain__,
        at: deps.now().toISOString(),
        may_replace: mayReplace,
      },
    },
    ownerMetadata(deps, context, { user, organizationId }),
  );
  return state as Extract<PasswordState, { status: 'set' }>;
}

/** Issues a one-time password code (reset link, renewal); only its hash is stored. */
export async function issuePasswordCode(
  deps: PasswordDeps,
  { user, organizationId }: PasswordOwner,
  reason: 'reset' | 'renew',
  redirectUri: string | null,
  context: RequestContext,
) {
  const code = randomSecret(32);
  const ttl = reason === 'reset' ? resetCodeTtlMs : renewCodeTtlMs;
  const expiresAt = new Date(deps.now().getTime() + ttl).toISOString();
  const requestId = randomUUID();
  await deps.aggregate(passwordCodeAggregate).handle(
    hashSecret(code),
    {
      type: 'IssuePasswordCode',
      data: {
        code_hash: hashSecret(code),
        reason,
        request_id: requestId,
        user_id: user.id,
        environment: user.__environment__,
        organization_domain: user.__domain__,
        redirect_uri: redirectUri,
        expires_at: expiresAt,
        at: deps.now().toISOString(),
        ...(reason === 'reset' && provenAddress(user.__environment__, user.email) ? { proven_email: user.email } : {}),
      },
    },
    ownerMetadata(deps, context, { user, organizationId }),
    { newStream: true },
  );
  return { code, expiresAt, requestId };
}

/** `POST /api/v2/password` with a `password_code`: the user it was issued for, in this environment. */
async function userOfCode(deps: PasswordDeps, code: string, environment: Environment, context: RequestContext) {
  const { state } = await deps.aggregate(passwordCodeAggregate).load(hashSecret(code));
  if (state.status !== 'issued' || state.environment !== environment || Date.parse(state.expires_at) <= deps.now().getTime())
    return fail(catalogueError('unknown_password_code'));
  const { user } = await deps.identity.call(
    subjects.identity.users.findById,
    { organization_domain: state.organization_domain, environment, id: state.user_id },
    rpcMeta(context, environment),
  );
  if (!user?.active) return fail(catalogueError('unknown_password_code'));
  return { user, redirectUri: state.redirect_uri, provesEmail: stillHasProvenAddress(user, provenEmailOf(state)) };
}

/** A reset code reached the user through their mailbox: their email is verified from now on. */
async function markEmailVerified(deps: PasswordDeps, user: User, context: RequestContext): Promise<User> {
  if (user.email_verified) return user;
  const { __domain__: organization_domain, __environment__: environment, id } = user;
  return deps.identity.call(
    subjects.identity.users.modify,
    { organization_domain, environment, id, email_verified: true },
    rpcMeta(context, environment),
  );
}

/** Whether the API key of the request holds `scope` (the gateway passes the key's scopes in `meta`). */
const holds = (context: RequestContext, scope: Scope) => context.meta.scopes?.includes(scope) ?? false;

/**
 * `POST /api/v2/password` by email: the user to set the password of, or null when it does not exist
 * yet. Creating the user needs `users:write` (as `POST /users` does), replacing a password in place
 * needs `passwords:write` (otherwise the `password_code` of a reset): 401 before anything is written.
 */
async function passwordTarget(
  deps: PasswordDeps,
  scope: { organization_domain: string; environment: Environment; email: string },
  context: RequestContext,
): Promise<User | null> {
  const { user } = await deps.identity.call(subjects.identity.users.findByEmail, scope, rpcMeta(context, scope.environment));
  if (!user) return holds(context, 'users:write') ? null : fail(catalogueError('unauthorized'));
  const { state: current } = await deps.aggregate(passwordAggregate).load(user.id);
  if (current.status === 'set' && !holds(context, 'passwords:write')) fail(catalogueError('unauthorized'));
  return user;
}

export function createPasswordHandler(deps: PasswordDeps) {
  return async ({ body }: OperationInput<typeof createPassword>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const meta = rpcMeta(context, environment);
    if (body.password_code) {
      const { user, redirectUri, provesEmail } = await userOfCode(deps, body.password_code, environment, context);
      // The code ends in a sign-in: the organization must still allow passwords.
      const organization = await deps.organizations.get(user.__domain__, meta);
      requireAuthnConnection(organization, 'password');
      const connection = await connectionOf(deps, environment, organization);
      if (!connection.active) return fail(inactive());
      await checkPolicy(deps, body.plain_text, connection, user.email);
      await deps
        .aggregate(passwordCodeAggregate)
        .handle(
          hashSecret(body.password_code),
          { type: 'UsePasswordCode', data: { at: deps.now().toISOString() } },
          ownerMetadata(deps, context, { user, organizationId: organization.id }),
        );
      const password = await storePassword(
        deps,
        { user, organizationId: organization.id },
        body.plain_text,
        connection,
        context,
        true,
      );
      if (provesEmail) await markEmailVerified(deps, user, context);
      const { code } = await deps.authorizationCodes.issue(
        {
          environment,
          organizationDomain: user.__domain__,
          organizationId: organization.id,
          userId: user.id,
          method: 'password',
          ...(redirectUri ? { redirectUri } : {}),
          ...(context.meta.clientId ? { clientId: context.meta.clientId } : {}),
          ...(body.code_challenge ? { codeChallenge: body.code_challenge } : {}),
        },
        deps.metadata(context),
      );
      return created({ id: password.password_id, user_id: user.id, code });
    }
    if (!body.user_email) return fail(fieldError('user_email', "can't be blank"));
    const organization = await signInOrganization(deps, body.user_email, body.org_domain, meta);
    const connection = await connectionOf(deps, environment, organization);
    if (!connection.active) return fail(inactive());
    const scope = { organization_domain: organization.domain, environment, email: body.user_email };
    const existing = await passwordTarget(deps, scope, context);
    await checkPolicy(deps, body.plain_text, connection, body.user_email);
    const user =
      existing ?? (await deps.identity.call(subjects.identity.users.findOrCreate, { ...scope, source: 'password' }, meta)).user;
    const password = await storePassword(
      deps,
      { user, organizationId: organization.id },
      body.plain_text,
      connection,
      context,
      holds(context, 'passwords:write'),
    );
    return created({ id: password.password_id, user_id: user.id, code: null });
  };
}

/**
 * A reset request answers no sooner than this: an existing user's request records a code and sends
 * an email, an unknown email's does neither, and the timing must not tell them apart.
 */
export const passwordRequestFloorMs = 150;

export function createPasswordRequestHandler(deps: PasswordDeps) {
  const answer = passwordRequestAnswer(deps);
  return (input: OperationInput<typeof createPasswordRequest>, context: RequestContext) =>
    noSoonerThan(passwordRequestFloorMs, () => answer(input, context));
}

function passwordRequestAnswer(deps: PasswordDeps) {
  return async ({ body }: OperationInput<typeof createPasswordRequest>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    // Creating the user is `POST /users`'s power: asked for, it needs `users:write` whether or not the user exists.
    if (body.find_or_create_user && !holds(context, 'users:write')) return fail(catalogueError('unauthorized'));
    const meta = rpcMeta(context, environment);
    const redirectUri = await deps.identity.resolveRedirectUri(environment, body.redirect_uri, meta);
    const org = await signInOrganization(deps, body.user_email, body.org_domain, meta, 'password');
    const organization = org.domain;
    if (!(await connectionOf(deps, environment, org)).active) return fail(inactive());
    const scope = { organization_domain: organization, environment, email: body.user_email };
    const user = body.find_or_create_user
      ? (await deps.identity.call(subjects.identity.users.findOrCreate, { ...scope, source: 'password' }, meta)).user
      : (await deps.identity.call(subjects.identity.users.findByEmail, scope, meta)).user;
    if (!user?.active)
      return created({
        request_id: randomUUID(),
        user_id: null,
        expired_at: new Date(deps.now().getTime() + resetCodeTtlMs).toISOString(),
        magic_link: null,
        redirect_uri: redirectUri,
      });
    const { code, expiresAt, requestId } = await issuePasswordCode(
      deps,
      { user, organizationId: org.id },
      'reset',
      redirectUri,
      context,
    );
    const link = new URL(redirectUri);
    link.searchParams.set('password_code', code);
    link.searchParams.set('request_id', requestId);
    const mail = renderMessage(deps.messages, 'password-reset', org, {
      organization: org.name,
      email: user.email,
      link: link.href,
      expires_at: new Date(expiresAt),
      valid_for: { durationMs: resetCodeTtlMs },
    });
    await deps.mailer.send({
      to: user.email,
      subject: mail.subject as string,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      links: [{ rel: 'password-reset', url: link.href }],
      tags: ['password-reset', organization],
    });
    // The link is the user's proof of owning the mailbox: only a sandbox key sees it, and it proves nothing there.
    return created({
      request_id: requestId,
      user_id: user.id,
      expired_at: expiresAt,
      magic_link: answersMailedSecrets(environment) ? link.href : null,
      redirect_uri: redirectUri,
    });
  };
}
