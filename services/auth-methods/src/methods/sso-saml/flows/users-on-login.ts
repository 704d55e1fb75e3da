import { subjects } from '@sesame/contracts';
import type { RpcMeta } from '@sesame/contracts';
import { DomainError } from '@sesame/platform';
import type { IdentityClient } from '../../../core/identity/identity-client';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import type { MappedUser } from '../domain/attribute-mapping';
import type { ValidatedAssertion } from '../saml/response-validator';
import { refuseSignIn } from './refusals';

/** Identity's refusal of a user over the plan's limit, as a sign-in refusal (the error page or redirect); anything else as it is. */
function refuseOverUserLimit(error: unknown): never {
  const refusal = error instanceof DomainError ? error.error : null;
  if (refusal?.kind === 'error' && refusal.code === 'user_limit_reached') refuseSignIn('user_limit_reached', refusal.code);
  throw error;
}

export interface SignedInUser {
  /** Null when the connection lets unregistered users in without provisioning them. */
  user_id: string | null;
  email: string;
  created: boolean;
}

/**
 * The user behind a valid assertion, per the connection's `users_access_policy`: an existing
 * user by email; otherwise refused (`only_registered_users`), provisioned within
 * `number_users_provisioning_limit` (`provision_new_users`) or let in without an account
 * (`unregistered_users_allowed`). A known user gets the identity recorded (`saml.<provider>`,
 * NameID, attributes) and the profile attributes refreshed, unless the connection writes them
 * only at creation.
 */
export async function userOnLogin(
  identity: IdentityClient,
  connection: PresentSsoConnection,
  mapped: MappedUser,
  assertion: ValidatedAssertion,
  /** The sign-in's, acting for the connection (`meta.actor`). */
  meta: RpcMeta,
  /** When the user signed in. */
  at: Date,
): Promise<SignedInUser> {
  const email = mapped.email ?? refuseSignIn('no_email', `NameID ${assertion.name_id} and no email attribute`);
  const scope = { organization_domain: connection.organization_domain, environment: connection.environment };
  const { settings } = connection;
  const found = await identity.call(subjects.identity.users.findByEmail, { ...scope, email }, meta);
  let user = found.user;
  let created = false;
  if (user && !user.active) refuseSignIn('user_inactive', `user ${user.id} is deactivated`);
  if (!user) {
    if (settings.users_access_policy === 'only_registered_users') refuseSignIn('user_not_registered', `no user ${email}`);
    if (settings.users_access_policy === 'unregistered_users_allowed') return { user_id: null, email, created: false };
    const limit = settings.number_users_provisioning_limit;
    if (limit !== null) {
      const { count } = await identity.call(subjects.identity.users.count, { ...scope, filter: {} }, meta);
      if (count >= limit) refuseSignIn('provisioning_limit_reached', `${count} users, limit ${limit}`);
    }
    user = await identity
      .call(
        subjects.identity.users.provision,
        { ...scope, email, email_verified: true, profile: mapped.profile, source: 'sso' },
        meta,
      )
      .catch(refuseOverUserLimit);
    created = true;
  }
  await identity.call(
    subjects.identity.users.recordIdentity,
    {
      ...scope,
      id: user.id,
      identity: {
        // An OIDC connection's identity is its ID token's subject and claims (`attributes`).
        provider: settings.type === 'oidc' ? 'oidc' : `saml.${settings.provider_type}`,
        idp_id: assertion.name_id,
        authenticated_at: Math.floor(at.getTime() / 1_000),
        data: { attributes: assertion.attributes, session_index: assertion.session_index, issuer: assertion.issuer },
      },
      profile: mapped.profile,
      update_profile_only_at_creation: settings.update_profile_only_at_creation,
    },
    meta,
  );
  return { user_id: user.id, email, created };
}
