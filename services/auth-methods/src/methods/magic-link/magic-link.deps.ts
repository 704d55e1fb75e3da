import type { MessageTemplates, Mailer } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { AuthorizationCodes } from '../../core/authorization-codes/authorization-codes';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import type { MailTemplates } from './mail-templates';
import type { MagicLinkConnectionsView } from './projections/magic-link-connections.projection';

/** How long a magic link (its authorization code) can be used: 10 minutes. */
export const magicLinkTtlSeconds = 600;
export const inactiveMagicLinkMessage = 'has no active magic link connection';
/**
 * A challenge answers no sooner than this: for an existing user (or one `find_or_create_user`
 * creates) it issues a code and sends an email, for an unknown email neither, and the timing must
 * not tell them apart.
 */
export const magicLinkChallengeFloorMs = 100;

/** What `registerMagicLink` is given. */
export interface MagicLinkServices {
  identity: IdentityClient;
  organizations: Organizations;
  codes: Pick<AuthorizationCodes, 'issue'>;
  mailer: Mailer;
  templates: MailTemplates;
}

/** What the magic-link handlers share. */
export interface MagicLinkDeps extends MagicLinkServices {
  runtime: ServiceRuntime;
  view: MagicLinkConnectionsView;
  /** The wording of the default email, in the organization's language. */
  messages: MessageTemplates;
  now(): Date;
}
