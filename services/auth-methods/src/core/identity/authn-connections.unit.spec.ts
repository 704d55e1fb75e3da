import type { Organization } from '@sesame/contracts';
import { DomainError } from '@sesame/platform';
import { allowsAuthnConnection, requireAuthnConnection } from './authn-connections';

const notAllowed = new DomainError({ kind: 'error', code: 'authn_connection_not_allowed' });
const organization = (allowed: Organization['allowed_authn_connections']) =>
  ({ domain: 'acme', allowed_authn_connections: allowed }) as Organization;

describe('allowed_authn_connections', () => {
  it('allows exactly the methods the organization lists', () => {
    const ssoOnly = organization(['sso']);
    expect(allowsAuthnConnection(ssoOnly, 'sso')).toBe(true);
    for (const method of ['password', 'magic_link', 'totp'] as const) {
      expect(allowsAuthnConnection(ssoOnly, method)).toBe(false);
      expect(() => requireAuthnConnection(ssoOnly, method)).toThrow(notAllowed);
    }
    expect(() => requireAuthnConnection(organization(['password', 'totp']), 'totp')).not.toThrow();
  });

  it('allows nothing when the list is empty', () => {
    for (const method of ['sso', 'password', 'magic_link', 'totp'] as const)
      expect(allowsAuthnConnection(organization([]), method)).toBe(false);
  });
});
