/**
 * Test tiers by file suffix: *.unit.spec.ts (and the service-level specifications,
 * *.service.spec.ts), *.deploy.spec.ts (the Helm chart, images and deployment files, with real
 * helm and yamllint binaries), *.int.spec.ts, test/e2e/*.e2e.spec.ts (and the
 * documentation samples, docs/test/*.e2e.spec.ts), and
 * docs/test/*.browser.spec.ts and onboarding/test/*.browser.spec.ts (the documentation site and the
 * IT-admin onboarding page in Debian's chromium; `npm run test:browser`), and
 * test/reliability/*.reliability.spec.ts (faults under a write load: kill -9, a NATS restart).
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const moduleNameMapper = {
  '^@sesame/contracts$': '<rootDir>/contracts/src',
  '^@sesame/platform$': '<rootDir>/services/platform/src',
  // The platform's subpaths (`/event-store`, `/messaging`, `/testing`...): a folder with its index.
  '^@sesame/platform/([a-z-]+)$': '<rootDir>/services/platform/src/$1',
  '^@sesame/(identity|auth-methods|directory-sync|webhooks)$': '<rootDir>/services/$1/src',
  '^@sesame/gateway$': '<rootDir>/gateway/src',
  '^@sesame/node$': '<rootDir>/sdk/node/src',
  // Relative ESM-style specifiers (`await import('./adapter.js')`, lazy adapters) to their TypeScript sources.
  '^(\\.{1,2}/.+)\\.js$': '$1',
};

const common = {
  rootDir: __dirname,
  // jose 6 ships ES modules only: compiled to CommonJS like the sources (jest's own require(esm)
  // needs --experimental-vm-modules).
  transform: { '^.+\\.tsx?$': swc, '/node_modules/jose/.+\\.js$': swc },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleNameMapper,
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/docs/(public|\\.cache)/', '<rootDir>/test-results/'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/*.unit.spec.ts', '<rootDir>/**/*.service.spec.ts'],
      // Some suites make RSA keys and certificates in their hooks (~0.3 s each on Node 24, several
      // seconds on a 2-core machine under load): jest's 5 s default failed them there, not the code.
      testTimeout: 20_000,
    },
    {
      ...common,
      displayName: 'deploy',
      testMatch: ['<rootDir>/deploy/test/**/*.deploy.spec.ts'],
      // As the unit tier's; the hooks that fetch helm and render the chart set longer ones of their own.
      testTimeout: 20_000,
    },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/**/*.int.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/long-timeouts.ts'],
      globalSetup: '<rootDir>/services/platform/src/testing/container-runtime.global-setup.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.spec.ts', '<rootDir>/docs/test/**/*.e2e.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/long-timeouts.ts'],
      // One running system for the files with default settings (`sharedSystem()`), started when a
      // chosen file uses it; the others start their own.
      globalSetup: '<rootDir>/test/support/shared-system.global-setup.ts',
      globalTeardown: '<rootDir>/test/support/shared-system.global-teardown.ts',
    },
    {
      ...common,
      displayName: 'reliability',
      testMatch: ['<rootDir>/test/reliability/**/*.reliability.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/long-timeouts.ts'],
      testTimeout: 600_000,
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/docs/test/**/*.browser.spec.ts', '<rootDir>/onboarding/test/**/*.browser.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/long-timeouts.ts'],
    },
  ],
};
