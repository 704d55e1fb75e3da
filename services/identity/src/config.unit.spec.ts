import { loadConfig } from '@sesame/platform';
import { identityConfigSchema, userLimitsOf } from './config';

describe("identity configuration: the plan's user limits", () => {
  it('are unlimited when unset or empty', () => {
    for (const deps of [
      {},
      { SESAME_USER_LIMIT_SANDBOX: '', SESAME_USER_LIMIT_PRODUCTION: '', SESAME_USER_LIMIT_ORGANIZATIONS: '' },
    ])
      expect(userLimitsOf(loadConfig(identityConfigSchema, deps))).toEqual({
        environments: { sandbox: null, production: null },
        organizations: {},
      });
  });

  it('reads a limit per environment and per organization domain', () => {
    const config = loadConfig(identityConfigSchema, {
      SESAME_USER_LIMIT_SANDBOX: '0',
      SESAME_USER_LIMIT_PRODUCTION: '500',
      SESAME_USER_LIMIT_ORGANIZATIONS: 'acme-corp=10, beta=5',
    });
    expect(userLimitsOf(config)).toEqual({
      environments: { sandbox: 0, production: 500 },
      organizations: { 'acme-corp': 10, beta: 5 },
    });
  });

  it('refuses to start on a malformed limit, naming it', () => {
    expect(() => loadConfig(identityConfigSchema, { SESAME_USER_LIMIT_SANDBOX: '-1' })).toThrow(/SESAME_USER_LIMIT_SANDBOX/);
    expect(() => loadConfig(identityConfigSchema, { SESAME_USER_LIMIT_PRODUCTION: 'ten' })).toThrow(
      /SESAME_USER_LIMIT_PRODUCTION/,
    );
    expect(() => loadConfig(identityConfigSchema, { SESAME_USER_LIMIT_ORGANIZATIONS: 'acme-corp' })).toThrow(
      'SESAME_USER_LIMIT_ORGANIZATIONS: must be domain=number entries separated by commas, each domain once',
    );
  });
});

describe('identity configuration: the DNS servers of domain verification', () => {
  it("are the system's when unset or empty", () => {
    expect(loadConfig(identityConfigSchema, {}).SESAME_DNS_SERVERS).toEqual([]);
    expect(loadConfig(identityConfigSchema, { SESAME_DNS_SERVERS: ' ' }).SESAME_DNS_SERVERS).toEqual([]);
  });

  it('are IP addresses with an optional port, separated by commas', () => {
    expect(
      loadConfig(identityConfigSchema, { SESAME_DNS_SERVERS: '192.0.2.53, 127.0.0.1:5353,[2001:db8::53]:53' }).SESAME_DNS_SERVERS,
    ).toEqual(['192.0.2.53', '127.0.0.1:5353', '[2001:db8::53]:53']);
  });

  it('refuse a host name', () => {
    expect(() => loadConfig(identityConfigSchema, { SESAME_DNS_SERVERS: 'dns.example.com' })).toThrow(
      'SESAME_DNS_SERVERS: must be IP addresses with an optional port, separated by commas',
    );
  });
});
