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
