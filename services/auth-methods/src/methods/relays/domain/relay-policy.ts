import type { RelayData, User } from '@sesame/contracts';

/** The identity a relay records on the partner user: `idp_id` is the relayed (source) user's id. */
export const relayIdentityProvider = 'relay';

/** The organizations whose users a relay accepts (none for a relay created before the field existed). */
export const sourceOrganizationsOf = (relay: Pick<RelayData, 'source_organizations'>): string[] =>
  relay.source_organizations ?? [];

/** Whether a user of `organizationDomain` may be relayed: the relay names it among its source organizations. */
export const acceptsSource = (relay: Pick<RelayData, 'source_organizations'>, organizationDomain: string): boolean =>
  sourceOrganizationsOf(relay).includes(organizationDomain);

type Relayed = Pick<User, 'id' | 'email_verified'>;
type PartnerAccount = Pick<User, 'email_verified' | 'identities'>;

/** Whether an earlier relay linked the partner account to this relayed user. */
export const linkedTo = (account: PartnerAccount, relayed: Pick<User, 'id'>): boolean =>
  account.identities.some((identity) => identity.provider === relayIdentityProvider && identity.idp_id === relayed.id);

/**
 * Whether a relayed user may be signed into the partner organization's existing account with the
 * same email. An email proves nothing until verified (anyone can self-register
 * `victim@corp.example` in an organization that lets users sign up): the account must already be
 * linked to this user by an earlier relay, or the user's email must be verified. Even then, an
 * unverified account that relays already link to other users (one a relay created just in time
 * for an unverified email) stays theirs: its email has not been proven by anyone.
 */
export function mayRelayInto(relayed: Relayed, account: PartnerAccount): boolean {
  if (linkedTo(account, relayed)) return true;
  if (!relayed.email_verified) return false;
  const claimedByOthers = account.identities.some((identity) => identity.provider === relayIdentityProvider);
  return account.email_verified || !claimedByOthers;
}
