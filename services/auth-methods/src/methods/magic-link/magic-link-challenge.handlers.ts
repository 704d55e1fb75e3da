import { randomUUID } from 'node:crypto';
import { fieldError, subjects } from '@sesame/contracts';
import type {
  Tenant,
  MagicLinkConnection,
  OperationInput,
  Organization,
  User,
  createMagicLinkChallenge,
} from '@sesame/contracts';
import { created, environmentOf, fail } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { noSoonerThan } from '../../core/answer-floor';
import { requireAuthnConnection } from '../../core/identity/authn-connections';
import { answersMailedSecrets, provenAddress } from '../../core/identity/mailbox-proof';
import { connectionOf, tenantOf } from './magic-link-connection.handlers';
import { inactiveMagicLinkMessage, magicLinkChallengeFloorMs, magicLinkTtlSeconds } from './magic-link.deps';
import type { MagicLinkDeps } from './magic-link.deps';
import { magicLinkMail, magicLinkUrl } from './magic-link-mail';

type ChallengeInput = OperationInput<typeof createMagicLinkChallenge>;

/** The user the link is for: found by email, or created when `find_or_create_user` applies. */
async function userFor(
  deps: MagicLinkDeps,
  tenant: Tenant,
  email: string,
  create: boolean,
  context: RequestContext,
): Promise<User | null> {
  const scope = { organization_domain: tenant.organization_domain, environment: tenant.environment };
  if (create)
    return (
      await deps.identity.call(subjects.identity.users.findOrCreate, { ...scope, email, source: 'magic_link' }, context.meta)
    ).user;
  return (await deps.identity.call(subjects.identity.users.findByEmail, { ...scope, email }, context.meta)).user;
}

/** Issues the user's code and mails the link that carries it. */
async function sendLink(
  deps: MagicLinkDeps,
  { body }: ChallengeInput,
  target: {
    organization: Organization;
    tenant: Tenant;
    connection: MagicLinkConnection;
    redirectUri: string;
    requestId: string;
  },
  user: User,
  context: RequestContext,
): Promise<{ code: string; url: string }> {
  const { organization, tenant, connection, redirectUri, requestId } = target;
  const { code, expires_at } = await deps.codes.issue(
    {
      environment: tenant.environment,
      organizationDomain: tenant.organization_domain,
      organizationId: tenant.organization_id,
      userId: user.id,
      method: 'magic_link',
      redirectUri,
      ttlSeconds: magicLinkTtlSeconds,
      ...(context.meta.clientId ? { clientId: context.meta.clientId } : {}),
      ...(body.code_challenge ? { codeChallenge: body.code_challenge } : {}),
      provenEmail: provenAddress(tenant.environment, user.email),
    },
    deps.runtime.metadata(context),
  );
  const link = { code, url: magicLinkUrl(redirectUri, code, requestId) };
  const values = {
    link: link.url,
    expires_in_minutes: String(magicLinkTtlSeconds / 60),
    organization: organization.name,
    email: user.email,
  };
  const wording = { messages: deps.messages, audience: organization, expiresAt: new Date(expires_at) };
  await deps.mailer.send({
    to: user.email,
    ...(await magicLinkMail(deps.templates, connection.sign_in_template_id, values, wording)),
    links: [{ rel: 'magic-link', url: link.url }],
    tags: ['magic-link', tenant.organization_domain],
  });
  return link;
}

async function challenge(deps: MagicLinkDeps, input: ChallengeInput, context: RequestContext) {
  const { body } = input;
  const environment = environmentOf(context.meta);
  const { organization } = await deps.identity.call(
    subjects.identity.organizations.forSignIn,
    { email: body.email, ...(body.org_domain ? { org_domain: body.org_domain } : {}) },
    context.meta,
  );
  requireAuthnConnection(organization, 'magic_link');
  const tenant = tenantOf(organization, environment);
  const connection = await connectionOf(deps, tenant);
  if (!connection?.active) return fail(fieldError('org_domain', inactiveMagicLinkMessage));
  const redirectUri = await deps.identity.resolveRedirectUri(environment, body.redirect_uri, context.meta);
  const findOrCreate = body.find_or_create_user ?? connection.find_or_create_user;
  const user = await userFor(deps, tenant, body.email, findOrCreate, context);
  const requestId = randomUUID();
  const target = { organization, tenant, connection, redirectUri, requestId };
  const link = user ? await sendLink(deps, input, target, user, context) : null;
  const shown = answersMailedSecrets(environment) ? link : null;
  return created({
    code: shown?.code ?? null,
    email_address: body.email,
    find_or_create_user: findOrCreate,
    magic_link: shown?.url ?? null,
    request_id: requestId,
  });
}

/** The challenge that emails a one-time link, answered no sooner than the floor whoever the email is. */
export function createMagicLinkChallengeHandler(deps: MagicLinkDeps) {
  return (input: ChallengeInput, context: RequestContext) =>
    noSoonerThan(magicLinkChallengeFloorMs, () => challenge(deps, input, context));
}
