import type { UnregisteredSubject } from '@sesame/contracts';
import { nameBasedUuid } from '@sesame/platform';
import type { MappedUser } from './attribute-mapping';

/**
 * The stable subject id of someone an SSO connection lets in without an account: the same for
 * every sign-in of the same NameID through the same connection, distinct across connections, and
 * never equal to a user id (a name-based UUID).
 */
export function unregisteredSubjectId(ssoConnectionId: string, nameId: string): string {
  return nameBasedUuid('sesame-sso-subject', ssoConnectionId, nameId);
}

const verifiedAttributes = ['email_verified', 'emailVerified'];

/**
 * Whether the identity provider vouches for the email: SAML has no standard claim for it, so an
 * IdP that sends `email_verified` (or `emailVerified`) decides; otherwise the email the
 * organization's own IdP signed is verified, as for a user provisioned by SSO.
 */
export function emailVerifiedOf(attributes: Record<string, string[]>): boolean {
  for (const name of verifiedAttributes) {
    const value = attributes[name]?.find((candidate) => candidate.trim() !== '');
    if (value !== undefined) return !['false', '0', 'no'].includes(value.trim().toLowerCase());
  }
  return true;
}

/** Who the assertion says signed in, for a connection with `users_access_policy: unregistered_users_allowed`. */
export function unregisteredSubjectOf(
  ssoConnectionId: string,
  assertion: { name_id: string; attributes: Record<string, string[]> },
  mapped: MappedUser & { email: string },
): { id: string; subject: UnregisteredSubject } {
  return {
    id: unregisteredSubjectId(ssoConnectionId, assertion.name_id),
    subject: {
      sso_connection_id: ssoConnectionId,
      name_id: assertion.name_id,
      email: mapped.email,
      email_verified: emailVerifiedOf(assertion.attributes),
      profile: mapped.profile,
      attributes: assertion.attributes,
    },
  };
}
