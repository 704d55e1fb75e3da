/**
 * NATS subjects, relative to the deployment prefix (`SESAME_PREFIX`, e.g. `sesame`):
 * the wire subject is `<prefix>.<subject>`. Each service answers its own subjects in a queue
 * group named after the service.
 */
export const serviceNames = ['identity', 'auth-methods', 'directory-sync', 'webhooks'] as const;
export type ServiceName = (typeof serviceNames)[number];

export const subjects = {
  health: (service: ServiceName) => `${service}.health`,
  identity: {
    organizations: {
      create: 'identity.organizations.create',
      list: 'identity.organizations.list',
      get: 'identity.organizations.get',
      update: 'identity.organizations.update',
      delete: 'identity.organizations.delete',
    },
  },
  authMethods: {
    token: 'auth-methods.oauth.token',
    jwks: 'auth-methods.jwks.get',
    apiKeys: {
      create: 'auth-methods.api-keys.create',
      list: 'auth-methods.api-keys.list',
      revoke: 'auth-methods.api-keys.revoke',
    },
  },
} as const;

export const wireSubject = (prefix: string, subject: string) => `${prefix}.${subject}`;

/** The JetStream subject prefix of one service's event store (`<prefix>.<service>`). */
export const eventSubjectPrefix = (prefix: string, service: ServiceName) => `${prefix}.${service}`;
