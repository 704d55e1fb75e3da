import { randomUUID } from 'node:crypto';
import {
  catalogueError,
  createMagicLinkChallenge,
  createMagicLinkConnection,
  fieldError,
  getMagicLinkConnection,
  subjects,
  updateMagicLinkConnection,
} from '@sesame/contracts';
import type { ConnectionTenant, Environment, MagicLinkConnection, OperationInput, Organization, User } from '@sesame/contracts';
import { AggregateView, created, fail, handleCommand, ok, renderMessage, shippedMessageTemplates } from '@sesame/platform';
import type { Mailer, MessageAudience, MessageTemplates, RequestContext, ServiceRuntime } from '@sesame/platform';
import { noSoonerThan } from '../../core/answer-floor';
import type { AuthorizationCodes } from '../../core/authorization-codes/authorization-codes';
import { requireAuthnConnection } from '../../core/identity/authn-connections';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import { magicLinkConnectionDecider } from './domain/magic-link-connection.decider';
import { renderTemplate } from './mail-templates';
import type { MailTemplates, TemplateValues } from './mail-templates';
import type { MagicLinkConnectionCommand, MagicLinkConnectionState } from './domain/magic-link-connection.decider';
import {
  magicLinkConnectionKey,
  magicLinkConnectionStream,
  magicLinkConnectionsView,
} from './projections/magic-link-connections.projection';
import type { MagicLinkConnectionsView } from './projections/magic-link-connections.projection';
import { answersMailedSecrets, provenAddress } from '../../core/identity/mailbox-proof';

/** How long a magic link (its authorization code) can be used: 10 minutes. */
export const magicLinkTtlSeconds = 600;
export const inactiveMagicLinkMessage = 'has no active magic link connection';
/**
 * A challenge answers no sooner than this: for an existing user (or one `find_or_create_user`
 * creates) it issues a code and sends an email, for an unknown email neither, and the timing must
 * not tell them apart.
 */
export const magicLinkChallengeFloorMs = 100;

export interface MagicLinkDeps {
  identity: IdentityClient;
  organizations: Organizations;
  codes: Pick<AuthorizationCodes, 'issue'>;
  mailer: Mailer;
  templates: MailTemplates;
}

/** How the default email is worded: the organization's language and time zone, and when the link expires. */
export interface MagicLinkWording {
  messages: MessageTemplates;
  audience: MessageAudience;
  expiresAt: Date;
}

/**
 * The email of a magic link: the connection's template when it names one (its subject, if it has
 * none, and the default email when it is gone are in the organization's language), else the
 * default one in the organization's language.
 */
export async function magicLinkMail(
  templates: MailTemplates,
  templateId: string | null,
  values: TemplateValues,
  wording: MagicLinkWording,
): Promise<{ subject: string; text: string; html?: string }> {
  const template = templateId ? await templates.load(templateId) : null;
  const localized = renderMessage(wording.messages, 'magic-link', wording.audience, {
    organization: values.organization,
    email: values.email,
    link: values.link,
    expires_at: wording.expiresAt,
    valid_for: { durationMs: Number(values.expires_in_minutes) * 60_000 },
  });
  const subject = localized.subject as string;
  if (!template) return { subject, text: localized.text, ...(localized.html ? { html: localized.html } : {}) };
  const rendered = renderTemplate(template, values);
  return { ...rendered, subject: rendered.subject ?? subject };
}

/** `redirect_uri` with `code` (and `request_id`) added to its query. */
export function magicLinkUrl(redirectUri: string, code: string, requestId: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  url.searchParams.set('request_id', requestId);
  return url.toString();
}

const tenantOf = (organization: Organization, environment: Environment): ConnectionTenant => ({
  organization_id: organization.id,
  organization_domain: organization.domain,
  environment,
});

/** Magic link: the connection of each organization and the challenge that emails a one-time link. */
export function registerMagicLink(runtime: ServiceRuntime, deps: MagicLinkDeps): { view: MagicLinkConnectionsView } {
  const view = runtime.projections.register(new AggregateView(magicLinkConnectionsView, runtime.readModels, runtime.eventStore));
  const messages = shippedMessageTemplates();
  const environmentOf = (context: RequestContext) => context.meta.environment ?? fail(catalogueError('unauthorized'));
  const scopeOf = async (domain: string, context: RequestContext) =>
    tenantOf(await deps.organizations.get(domain, context.meta), environmentOf(context));
  const connectionOf = async (tenant: ConnectionTenant): Promise<MagicLinkConnection | null> =>
    (await view.documents.get(magicLinkConnectionKey(tenant.environment, tenant.organization_id)))?.connection ?? null;
  const run = async (tenant: ConnectionTenant, command: MagicLinkConnectionCommand, context: RequestContext) => {
    const stream = magicLinkConnectionStream(tenant.environment, tenant.organization_id);
    const commandDeps = runtime.commandDeps<MagicLinkConnectionState>();
    const { state } = await handleCommand(commandDeps, magicLinkConnectionDecider, stream, command, runtime.metadata(context));
    return state.connection as MagicLinkConnection;
  };

  runtime.router.operation(getMagicLinkConnection, async ({ params }, context) => {
    const connection = await connectionOf(await scopeOf(params.org_domain, context));
    return connection ? ok(connection) : fail(catalogueError('resource_not_found'));
  });
  /** A named template must exist in the template directory and use only known placeholders (422 otherwise). */
  const checkTemplate = async (templateId: string | null | undefined) => {
    const problem = templateId ? await deps.templates.problemWith(templateId) : null;
    if (problem) fail(fieldError('sign_in_template_id', problem));
  };
  runtime.router.operation(createMagicLinkConnection, async ({ params, body }, context) => {
    const tenant = await scopeOf(params.org_domain, context);
    await checkTemplate(body.sign_in_template_id);
    const at = new Date().toISOString();
    return created(
      await run(tenant, { type: 'CreateMagicLinkConnection', data: { tenant, id: randomUUID(), fields: body, at } }, context),
    );
  });
  runtime.router.operation(updateMagicLinkConnection, async ({ params, body }, context) => {
    const tenant = await scopeOf(params.org_domain, context);
    await checkTemplate(body.sign_in_template_id);
    const at = new Date().toISOString();
    return ok(await run(tenant, { type: 'UpdateMagicLinkConnection', data: { tenant, changes: body, at } }, context));
  });

  /** The user the link is for: found by email, or created when `find_or_create_user` applies. */
  const userFor = async (
    tenant: ConnectionTenant,
    email: string,
    create: boolean,
    context: RequestContext,
  ): Promise<User | null> => {
    const scope = { organization_domain: tenant.organization_domain, environment: tenant.environment };
    if (create)
      return (
        await deps.identity.call(subjects.identity.users.findOrCreate, { ...scope, email, source: 'magic_link' }, context.meta)
      ).user;
    return (await deps.identity.call(subjects.identity.users.findByEmail, { ...scope, email }, context.meta)).user;
  };

  const challenge = async ({ body }: OperationInput<typeof createMagicLinkChallenge>, context: RequestContext) => {
    const environment = environmentOf(context);
    const { organization } = await deps.identity.call(
      subjects.identity.organizations.forSignIn,
      { email: body.email, ...(body.org_domain ? { org_domain: body.org_domain } : {}) },
      context.meta,
    );
    requireAuthnConnection(organization, 'magic_link');
    const tenant = tenantOf(organization, environment);
    const connection = await connectionOf(tenant);
    if (!connection?.active) fail(fieldError('org_domain', inactiveMagicLinkMessage));
    const redirectUri = await deps.identity.resolveRedirectUri(environment, body.redirect_uri, context.meta);
    const findOrCreate = body.find_or_create_user ?? connection.find_or_create_user;
    const user = await userFor(tenant, body.email, findOrCreate, context);
    const requestId = randomUUID();
    const answersCode = answersMailedSecrets(environment);
    let link: { code: string; url: string } | null = null;
    if (user) {
      const { code, expires_at } = await deps.codes.issue(
        {
          environment,
          organizationDomain: tenant.organization_domain,
          userId: user.id,
          method: 'magic_link',
          redirectUri,
          ttlSeconds: magicLinkTtlSeconds,
          ...(context.meta.clientId ? { clientId: context.meta.clientId } : {}),
          ...(body.code_challenge ? { codeChallenge: body.code_challenge } : {}),
          provenEmail: provenAddress(environment, user.email),
        },
        runtime.metadata(context),
      );
      link = { code, url: magicLinkUrl(redirectUri, code, requestId) };
      const values = {
        link: link.url,
        expires_in_minutes: String(magicLinkTtlSeconds / 60),
        organization: organization.name,
        email: user.email,
      };
      const wording = { messages, audience: organization, expiresAt: new Date(expires_at) };
      await deps.mailer.send({
        to: user.email,
        ...(await magicLinkMail(deps.templates, connection.sign_in_template_id, values, wording)),
        links: [{ rel: 'magic-link', url: link.url }],
        tags: ['magic-link', tenant.organization_domain],
      });
    }
    const shown = answersCode ? link : null;
    return created({
      code: shown?.code ?? null,
      email_address: body.email,
      find_or_create_user: findOrCreate,
      magic_link: shown?.url ?? null,
      request_id: requestId,
    });
  };
  runtime.router.operation(createMagicLinkChallenge, (input, context) =>
    noSoonerThan(magicLinkChallengeFloorMs, () => challenge(input, context)),
  );
  return { view };
}
