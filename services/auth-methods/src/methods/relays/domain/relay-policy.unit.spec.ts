import type { Identity } from '@sesame/contracts';
import { acceptsSource, mayRelayInto, relayIdentityProvider, sourceOrganizationsOf } from './relay-policy';

const link = (sourceUserId: string): Identity => ({
  provider: relayIdentityProvider,
  idp_id: sourceUserId,
  authenticated_at: 1_770_000_000,
  data: {},
});
const sso: Identity = { provider: 'saml.okta', idp_id: 'victim@corp.example', authenticated_at: 1_770_000_000, data: {} };
const account = (email_verified: boolean, identities: Identity[] = []) => ({ email_verified, identities });
const verified = { id: 'u-verified', email_verified: true };
const unverified = { id: 'u-unverified', email_verified: false };

describe('relay policy', () => {
  it('accepts users of the source organizations only; a relay without the field accepts none', () => {
    const relay = { source_organizations: ['acme', 'globex'] };
    expect(acceptsSource(relay, 'acme')).toBe(true);
    expect(acceptsSource(relay, 'initech')).toBe(false);
    expect(acceptsSource({ source_organizations: [] }, 'acme')).toBe(false);
    expect(sourceOrganizationsOf({})).toEqual([]);
    expect(acceptsSource({}, 'acme')).toBe(false);
  });

  it('never signs an unverified email into an existing account it is not linked to', () => {
    expect(mayRelayInto(unverified, account(true))).toBe(false);
    expect(mayRelayInto(unverified, account(false, [sso]))).toBe(false);
    expect(mayRelayInto(unverified, account(false, [link('someone-else')]))).toBe(false);
  });

  it('signs a user into the account an earlier relay linked to them, verified or not', () => {
    expect(mayRelayInto(unverified, account(false, [link(unverified.id)]))).toBe(true);
    expect(mayRelayInto(verified, account(false, [link('someone-else'), link(verified.id)]))).toBe(true);
  });

  it('matches a verified email, except onto an unverified account that relays link to other users', () => {
    expect(mayRelayInto(verified, account(true))).toBe(true);
    expect(mayRelayInto(verified, account(false))).toBe(true);
    expect(mayRelayInto(verified, account(false, [sso]))).toBe(true);
    expect(mayRelayInto(verified, account(true, [link('someone-else')]))).toBe(true);
    expect(mayRelayInto(verified, account(false, [link('someone-else')]))).toBe(false);
  });
});
