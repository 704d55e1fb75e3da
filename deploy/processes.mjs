/** The processes of a local run, in start order: the four services, then the gateway. */
export const services = ['identity', 'auth-methods', 'directory-sync', 'webhooks'];

export const processEntries = {
  identity: 'services/identity/dist/main.js',
  'auth-methods': 'services/auth-methods/dist/main.js',
  'directory-sync': 'services/directory-sync/dist/main.js',
  webhooks: 'services/webhooks/dist/main.js',
  gateway: 'gateway/dist/main.js',
};

export const cliEntry = 'services/auth-methods/dist/cli/sesame.js';
