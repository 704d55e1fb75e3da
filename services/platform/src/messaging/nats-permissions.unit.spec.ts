import { operations, serviceNames } from '@sesame/contracts';
import { natsConnectionOptions, natsRoles } from './nats-connection';
import { natsPermissions } from './nats-permissions';
import { natsServerConfig, sesameNatsUsers } from './nats-server-config';

/** NATS subject matching: `*` one token, `>` the rest. */
function matches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (const [index, token] of wanted.entries()) {
    if (token === '>') return tokens.length > index;
    if (index >= tokens.length || (token !== '*' && token !== tokens[index])) return false;
  }
  return wanted.length === tokens.length;
}

const permissions = natsPermissions('acme');
const canPublish = (role: keyof typeof permissions, subject: string) =>
  permissions[role].publish.allow.some((pattern) => matches(pattern, subject));
const canSubscribe = (role: keyof typeof permissions, subject: string) =>
  permissions[role].subscribe.allow.some((pattern) => matches(pattern, subject));
const stream = (service: string) => `ACME_${service.toUpperCase().replace('-', '_')}_EVENTS`;

describe('natsPermissions', () => {
  it('lets the gateway call every subject of the operation table, and answer nothing', () => {
    for (const operation of operations)
      expect([operation.subject, canPublish('gateway', `acme.${operation.subject}`)]).toEqual([operation.subject, true]);
    expect(canPublish('gateway', 'acme.auth-methods.jwks.get')).toBe(true);
    expect(canPublish('gateway', 'acme.identity.users.provision')).toBe(false);
    expect(permissions.gateway.allow_responses).toBe(false);
  });

  it('answers by subject, never by allow_responses (nats-server tracks every delivery with a reply then)', () => {
    for (const role of natsRoles) expect([role, permissions[role].allow_responses]).toEqual([role, false]);
    expect(canPublish('identity', '_INBOX.acme.gateway.abc123')).toBe(true);
    expect(canPublish('identity', '_INBOX.acme.auth-methods.abc123')).toBe(true);
    expect(canPublish('identity', '_INBOX.acme.cli.abc123')).toBe(false);
    expect(canPublish('webhooks', '$JS.FC.KV_acme_webhook_jobs.consumer1.3')).toBe(true);
    expect(canPublish('webhooks', '$JS.FC.KV_acme_rate_limits.consumer1.3')).toBe(false);
  });

  it("gives each service its own subjects to serve, and nobody another's", () => {
    for (const role of natsRoles)
      for (const service of serviceNames)
        expect([role, service, canSubscribe(role, `acme.${service}.organizations.get`)]).toEqual([
          role,
          service,
          role === service,
        ]);
  });

  it('lets each role receive replies on its own inbox only', () => {
    for (const role of natsRoles)
      for (const other of natsRoles)
        expect([role, other, canSubscribe(role, `_INBOX.acme.${other}.abc`)]).toEqual([role, other, role === other]);
    for (const role of natsRoles) expect(canSubscribe(role, '_INBOX.abc')).toBe(false);
  });

  it("lets a service answer into its callers' inboxes (even after a NATS restart), and nobody else's", () => {
    const callers: Record<string, string[]> = {
      identity: ['gateway', 'auth-methods', 'directory-sync', 'webhooks'],
      'auth-methods': ['gateway'],
      'directory-sync': ['gateway'],
      webhooks: ['gateway'],
      gateway: [],
      cli: [],
    };
    for (const role of natsRoles)
      for (const caller of natsRoles)
        expect([role, caller, canPublish(role, `_INBOX.acme.${caller}.abc.1`)]).toEqual([
          role,
          caller,
          callers[role]?.includes(caller),
        ]);
  });

  it("lets a service append only to its own events stream, and the CLI only API-key commits to auth-methods'", () => {
    for (const role of natsRoles)
      for (const service of serviceNames)
        expect([role, service, canPublish(role, `acme.${service}.events.apiKey.x`)]).toEqual([
          role,
          service,
          role === service || (role === 'cli' && service === 'auth-methods'),
        ]);
    expect(canPublish('cli', 'acme.auth-methods.events.signingKeys.default')).toBe(false);
  });

  it("lets a service read another's events only through its own named durable consumers", () => {
    expect(
      canPublish('webhooks', `$JS.API.CONSUMER.CREATE.${stream('identity')}.webhooks-from-identity.acme.identity.events.>`),
    ).toBe(true);
    expect(canPublish('webhooks', `$JS.API.CONSUMER.MSG.NEXT.${stream('identity')}.webhooks-from-identity`)).toBe(true);
    expect(canPublish('webhooks', `$JS.API.CONSUMER.CREATE.${stream('identity')}.other`)).toBe(false);
    expect(canPublish('webhooks', `$JS.API.DIRECT.GET.${stream('identity')}.acme.identity.events.organization.x`)).toBe(false);
    expect(canPublish('gateway', `$JS.API.STREAM.INFO.${stream('identity')}`)).toBe(false);
  });

  it("lets a follower of a whole events stream get its messages by sequence from the stream's leader, and a follower of part of one none", () => {
    expect(canPublish('webhooks', `$JS.API.STREAM.MSG.GET.${stream('identity')}`)).toBe(true);
    expect(canPublish('webhooks', `$JS.API.STREAM.MSG.GET.${stream('auth-methods')}`)).toBe(true);
    expect(canPublish('webhooks', `$JS.API.DIRECT.GET.${stream('identity')}`)).toBe(false);
    expect(canPublish('gateway', `$JS.API.STREAM.MSG.GET.${stream('auth-methods')}`)).toBe(false);
    expect(canPublish('gateway', `$JS.API.DIRECT.GET.${stream('auth-methods')}`)).toBe(false);
    expect(canPublish('gateway', `$JS.API.DIRECT.GET.${stream('auth-methods')}.acme.auth-methods.events.apiKey.x`)).toBe(false);
    expect(canPublish('identity', `$JS.API.STREAM.MSG.GET.${stream('auth-methods')}`)).toBe(false);
  });

  it('lets nobody delete, purge or reconfigure a stream, or delete a message', () => {
    const streams = [
      ...serviceNames.map(stream),
      'ACME_MAIL_QUEUE',
      'ACME_OUTBOX',
      'KV_acme_rate_limits',
      'KV_acme_idempotency',
      'KV_acme_webhook_jobs',
    ];
    for (const role of natsRoles)
      for (const name of streams)
        for (const action of ['DELETE', 'PURGE', 'UPDATE', 'MSG.DELETE'])
          expect([role, name, action, canPublish(role, `$JS.API.STREAM.${action}.${name}`)]).toEqual([role, name, action, false]);
  });
});

describe('natsServerConfig', () => {
  it('renders a user per role with its permissions, a password from a variable left unquoted', () => {
    const passwords = Object.fromEntries(natsRoles.map((role) => [role, { variable: `PASSWORD_${role.toUpperCase()}` }]));
    const config = natsServerConfig({
      host: '127.0.0.1',
      port: 4333,
      storeDir: '/data',
      users: [...sesameNatsUsers('acme', passwords as never), { user: 'operator', password: 'p"w' }],
    });
    expect(config).toContain(
      'listen: "127.0.0.1:4333"\njetstream {\n  store_dir: "/data"\n}\nauthorization {\n  users: [\n    {\n      user: "gateway"\n      password: $PASSWORD_GATEWAY\n',
    );
    expect(config).toContain('"$JS.API.INFO"');
    expect(config).toContain('      user: "operator"\n      password: "p\\"w"\n    }\n  ]\n}\n');
  });
});

describe('natsConnectionOptions', () => {
  const settings = { SESAME_NATS_URL: 'nats://a:4222, nats://b:4222', SESAME_PREFIX: 'acme' };

  it('connects with the credentials and TLS files given, on the role’s inbox prefix, to every server listed, pinging every 10 s (a stalled server given up after 2 unanswered)', () => {
    expect(
      natsConnectionOptions(
        { ...settings, SESAME_NATS_USER: 'gateway', SESAME_NATS_PASSWORD: 'pw', SESAME_NATS_TLS_CA: '/ca.crt' },
        'gateway',
      ),
    ).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222'],
      name: 'acme.gateway',
      inboxPrefix: '_INBOX.acme.gateway',
      maxReconnectAttempts: -1,
      pingInterval: 10_000,
      maxPingOut: 2,
      noAsyncTraces: true,
      user: 'gateway',
      pass: 'pw',
      tls: { caFile: '/ca.crt' },
    });
  });

  it('adds nothing for credentials that are not given', () => {
    expect(natsConnectionOptions(settings, 'identity', 'acme.identity.rpc')).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222'],
      name: 'acme.identity.rpc',
      inboxPrefix: '_INBOX.acme.identity',
      maxReconnectAttempts: -1,
      pingInterval: 10_000,
      maxPingOut: 2,
      noAsyncTraces: true,
    });
  });
});
