import { catalogueError } from '@sesame/contracts';
import type { Organization } from '@sesame/contracts';
import { fail } from '@sesame/platform';

/** A sign-in method an organization may allow: `sso`, `password`, `magic_link`, `totp`. */
export type AuthnConnection = Organization['allowed_authn_connections'][number];

/**
 * Whether the organization lets its users sign in with `method`: its `allowed_authn_connections`
 * names it. Organizations are created with all four methods; an empty list allows none (the
 * organization's sign-ins are closed). Relays are not one of these methods: a relay names the
 * partner organization it signs users into, and the source organizations it accepts them from.
 */
export const allowsAuthnConnection = (
  organization: Pick<Organization, 'allowed_authn_connections'>,
  method: AuthnConnection,
): boolean => organization.allowed_authn_connections.includes(method);

/** Refuses a sign-in the organization does not allow: 403 `authn_connection_not_allowed`. */
export function requireAuthnConnection(
  organization: Pick<Organization, 'allowed_authn_connections'>,
  method: AuthnConnection,
): void {
  if (!allowsAuthnConnection(organization, method)) fail(catalogueError('authn_connection_not_allowed'));
}
