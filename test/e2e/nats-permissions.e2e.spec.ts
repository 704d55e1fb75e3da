import { randomUUID } from 'node:crypto';
import { connect, JSONCodec } from 'nats';
import type { NatsConnection } from 'nats';
import { subjects, wireSubject } from '@sesame/contracts';
import { baseConfigSchema, natsConnectionOptions } from '@sesame/platform';
import { jetStreamName } from '@sesame/platform/stores';
import type { NatsRole } from '@sesame/platform';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';

const json = JSONCodec();

/**
 * NATS is the services' control plane: a request names its environment and scopes itself, so whoever
 * may publish a service subject acts as any API key. The system's NATS refuses clients without
 * credentials, and gives each process's user only what that process does (`natsPermissions`), while
 * the system works. Intruding connections are named `intruder`: `System.stop` fails on a refusal of
 * the processes' own connections.
 */
describe('NATS credentials and permissions (real NATS, all processes)', () => {
  let system: System;
  let productionKey: ApiKey;
  let production: string;
  const opened: NatsConnection[] = [];

  /** A connection with the credentials of one of the system's processes. */
  const as = async (role: NatsRole) => {
    const nc = await connect(natsConnectionOptions(baseConfigSchema.parse(system.envOf(role)), role, 'intruder'));
    opened.push(nc);
    return nc;
  };
  /** A request as the services' RPC client sends it (Nest's NATS packet), for a production API key. */
  const command = (subject: string, domain: string) =>
    json.encode({
      pattern: wireSubject(system.prefix, subject),
      id: randomUUID(),
      data: {
        meta: { correlationId: randomUUID(), environment: 'production', clientId: 'intruder', scopes: ['organizations:write'] },
        input: { params: { org_domain: domain }, query: {}, body: {} },
      },
    });
  const refused = (subject: string, kind: 'Publish' | 'Subscription' = 'Publish') => ({
    code: 'PERMISSIONS_VIOLATION',
    message: `'Permissions Violation for ${kind} to "${subject}"'`,
  });
  const readProduction = () => system.request('GET', `/api/v2/organizations/${production}`, { key: productionKey });
  const identityEvents = () => jetStreamName(system.prefix, 'identity');
  const lastSequence = async () => {
    const harness = await connect(system.natsOptions());
    try {
      return (await (await harness.jetstreamManager()).streams.info(identityEvents())).state.last_seq;
    } finally {
      await harness.close();
    }
  };

  beforeAll(async () => {
    system = await System.start();
    productionKey = system.createApiKey('production');
    const created = await system.request('POST', '/api/v2/organizations', {
      key: productionKey,
      body: { name: 'Control Plane' },
    });
    production = created.body.domain;
  });
  afterAll(async () => {
    await Promise.all(opened.map((nc) => nc.close()));
    await system?.stop();
  });

  it('refuses a client without credentials, or with a wrong password, before it can ask anything', async () => {
    await expect(connect({ servers: system.env.SESAME_NATS_URL, name: 'intruder' })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
    await expect(
      connect({ servers: system.env.SESAME_NATS_URL, user: 'gateway', pass: 'not-the-password', name: 'intruder' }),
    ).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    expect((await readProduction()).status).toBe(200);
  });

  it('lets the gateway call the subjects of its routes', async () => {
    const gateway = await as('gateway');
    const subject = wireSubject(system.prefix, subjects.identity.organizations.get);
    const answer = json.decode((await gateway.request(subject, command(subjects.identity.organizations.get, production))).data);
    expect(answer).toMatchObject({ response: { ok: true, status: 200, body: { domain: production } } });
  });

  it("refuses the gateway's user a service subject to serve, anyone's replies, and a subject it does not call", async () => {
    const gateway = await as('gateway');
    const organizationsGet = wireSubject(system.prefix, subjects.identity.organizations.get);
    for (const subject of [organizationsGet, '_INBOX.>', `_INBOX.${system.prefix}.identity.>`]) {
      const subscription = gateway.subscribe(subject);
      const first = (async () => {
        for await (const message of subscription) return message;
      })();
      await expect(first).rejects.toMatchObject(refused(subject, 'Subscription'));
    }
    const provision = wireSubject(system.prefix, subjects.identity.users.provision);
    await expect(gateway.request(provision, json.encode({}))).rejects.toMatchObject(refused(provision));
    expect((await readProduction()).status).toBe(200);
  });

  it("refuses the gateway's user to append an event to a service's stream or to read one", async () => {
    const before = await lastSequence();
    const gateway = await as('gateway');
    const subject = `${system.prefix}.identity.events.organization.${production}`;
    await expect(gateway.jetstream().publish(subject, json.encode({ v: 1, events: [] }))).rejects.toMatchObject(refused(subject));
    const jsm = await gateway.jetstreamManager();
    await expect(jsm.streams.info(identityEvents())).rejects.toMatchObject(refused(`$JS.API.STREAM.INFO.${identityEvents()}`));
    await expect(jsm.streams.getMessage(identityEvents(), { seq: 1 })).rejects.toMatchObject(
      refused(`$JS.API.STREAM.MSG.GET.${identityEvents()}`),
    );
    await expect(jsm.consumers.add(identityEvents(), { name: 'intruder' })).rejects.toMatchObject(
      refused(`$JS.API.CONSUMER.CREATE.${identityEvents()}.intruder`),
    );
    expect(await lastSequence()).toBe(before);
  });

  it("refuses a service the others' subjects it does not call, their events but through its own feeds, and deleting its stream", async () => {
    const webhooks = await as('webhooks');
    const organizationsDelete = wireSubject(system.prefix, subjects.identity.organizations.delete);
    await expect(
      webhooks.request(organizationsDelete, command(subjects.identity.organizations.delete, production)),
    ).rejects.toMatchObject(refused(organizationsDelete));
    const jsm = await webhooks.jetstreamManager();
    await expect(jsm.consumers.add(identityEvents(), { durable_name: 'intruder' })).rejects.toMatchObject(
      refused(`$JS.API.CONSUMER.CREATE.${identityEvents()}.intruder`),
    );
    const identity = await as('identity');
    await expect((await identity.jetstreamManager()).streams.delete(identityEvents())).rejects.toMatchObject(
      refused(`$JS.API.STREAM.DELETE.${identityEvents()}`),
    );
    expect((await readProduction()).status).toBe(200);
  });

  it('drops a command a push consumer replays onto a service subject from a stream its user may write', async () => {
    const webhooks = await as('webhooks');
    const bucket = `${system.prefix}_webhook_jobs`;
    await (
      await webhooks.jetstreamManager()
    ).consumers.add(`KV_${bucket}`, {
      name: 'intruder',
      deliver_subject: wireSubject(system.prefix, subjects.identity.organizations.delete),
      deliver_group: 'identity',
      filter_subject: `$KV.${bucket}.intruder`,
    });
    const kv = await webhooks.jetstream().views.kv(bucket);
    await kv.put('intruder', command(subjects.identity.organizations.delete, production));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await readProduction()).status).toBe(200);
    const gateway = await as('gateway');
    const rateLimits = `KV_${system.prefix}_rate_limits`;
    for (const bucket of [rateLimits, `KV_${system.prefix}_idempotency`])
      await expect((await gateway.jetstreamManager()).consumers.add(bucket, { name: 'intruder' })).rejects.toMatchObject(
        refused(`$JS.API.CONSUMER.CREATE.${bucket}.intruder`),
      );
  });

  it("lets the CLI's user append API-key commits only", async () => {
    const cli = await as('cli');
    const subject = `${system.prefix}.auth-methods.events.signingKeys.default`;
    await expect(cli.jetstream().publish(subject, json.encode({ v: 1, events: [] }))).rejects.toMatchObject(refused(subject));
    const key = system.createApiKey('sandbox');
    expect((await system.request('GET', '/api/v2/organizations', { key })).status).toBe(200);
  });
});
