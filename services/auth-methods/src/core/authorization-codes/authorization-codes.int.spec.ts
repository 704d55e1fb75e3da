import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { JetStreamEventStore } from '@sesame/platform/event-store';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { client1, metadata, signInKit } from './sign-in.spec-kit';

/** Two replicas (two connections, two event-store instances) on one JetStream stream of the real NATS server. */
describe('authorization codes across replicas (real NATS JetStream)', () => {
  const prefix = testPrefix('codes');
  const options = { streamName: `${prefix}_AUTH_METHODS`.toUpperCase(), subjectPrefix: `${prefix}.auth-methods` };
  let connections: NatsConnection[];
  let stores: JetStreamEventStore[];
  beforeAll(async () => {
    connections = await Promise.all([connect({ servers: testNatsUrl() }), connect({ servers: testNatsUrl() })]);
    stores = [];
    for (const nc of connections) stores.push(await JetStreamEventStore.open(nc, options));
  });
  afterAll(async () => {
    await stores[0]?.destroy();
    await Promise.all(connections.map((nc) => nc.close()));
  });

  it('exchanges a code exactly once when both replicas race for it, and revokes what it gave', async () => {
    const [one, two] = await Promise.all(stores.map((store) => signInKit(store)));
    if (!one || !two) throw new Error('no replicas');
    const user = one.addUser();
    two.users.set(user.id, user);
    for (let round = 0; round < 5; round++) {
      const { code } = await one.codes.issue(
        { environment: 'sandbox', organizationDomain: 'acme', userId: user.id, method: 'password' },
        metadata(),
      );
      const replies = await Promise.all(
        [one, two, one, two].map((replica) => replica.token({ grant_type: 'authorization_code', code, ...client1 })),
      );
      expect(replies.filter((reply) => reply.ok)).toHaveLength(1);
      expect(
        replies.filter((reply) => !reply.ok && reply.error.kind === 'oauth' && reply.error.code === 'invalid_grant'),
      ).toHaveLength(3);
      const winner = replies.find((reply) => reply.ok);
      if (!winner?.ok) throw new Error('no winner');
      const refresh = { grant_type: 'refresh_token', refresh_token: winner.body.refresh_token as string, ...client1 };
      expect(await two.token(refresh)).toMatchObject({
        ok: false,
        error: { code: 'invalid_grant' },
      });
    }
  });

  it('rotates a refresh token once when both replicas race for it, and then revokes the family', async () => {
    const [one, two] = await Promise.all(stores.map((store) => signInKit(store)));
    if (!one || !two) throw new Error('no replicas');
    const user = one.addUser();
    two.users.set(user.id, user);
    const { code } = await one.codes.issue(
      { environment: 'production', organizationDomain: 'acme', userId: user.id, method: 'magic_link' },
      metadata(),
    );
    const prod1 = { client_id: 'prod-1', client_secret: 'secret-p' };
    const first = await two.token({ grant_type: 'authorization_code', code, ...prod1 });
    if (!first.ok) throw new Error('no tokens');
    const replies = await Promise.all(
      [one, two].map((replica) =>
        replica.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...prod1 }),
      ),
    );
    expect(replies.filter((reply) => reply.ok)).toHaveLength(1);
    const winner = replies.find((reply) => reply.ok);
    if (!winner?.ok) throw new Error('no winner');
    expect(await one.token({ grant_type: 'refresh_token', refresh_token: winner.body.refresh_token, ...prod1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_grant' },
    });
  });
});
