import { jetStreamName } from '@sesame/platform/stores';
import type { NatsUser } from '@sesame/platform/messaging';
import { System } from '../support/system';
import { WriteLoad } from '../support/write-load';
import { visibleState } from '../support/visible-state';
import { FollowedWebhook, fastDeliveryEnv } from '../support/webhook-audit';
import { WebhookReceiver } from '../support/webhook-receiver';
import { verify } from '../support/reliability-checks';
import { NatsCluster } from '../support/nats-cluster';
import { NetworkNamespaces } from '../support/network-namespaces';

/**
 * Faults of a real three-node NATS JetStream cluster (each node a host of its own: a network
 * namespace on a bridge), every stream and key-value bucket at replication 3, under a steady
 * write load through the gateway: kill -9 of a node, then of the node leading the identity
 * service's event stream. Each killed node restarts on its store and catches up before the next
 * fault. Not yet here: a partition (`NatsCluster.partition`, its veth down): cutting the stream
 * leader off for 8 s left identity's provisioning feeds stuck for over 2 minutes after the heal
 * (511 commits pending, 1 unacknowledged), an open bug. Afterwards the same
 * checks as for one machine (`verify`): 0 acknowledged writes lost, none applied twice, every
 * webhook event delivered, read models rebuilt from zero equal to the live ones.
 *
 * Skipped, with the reason, where network namespaces cannot be created (not root, no iproute2).
 * Bounded: `SESAME_RELIABILITY_SECONDS` seconds of load between faults (default 3).
 */
const phaseMs = Number(process.env.SESAME_RELIABILITY_SECONDS ?? 3) * 1_000;
const testTimeoutMs = 600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The gateway creates its key-value buckets (rate limits, idempotency) within the rate limiter's
 * per-request timeout (500 ms by default): placing a bucket of 3 replicas on a fresh cluster of
 * a loaded machine takes longer, and the gateway exits at its start (Kubernetes restarts it and
 * the bucket is there by then). Known; until bucket creation has a timeout of its own, 5 s here.
 */
const gatewayOnCluster = { SESAME_RATE_LIMIT_TIMEOUT_MS: '5000' };

const unsupported = NetworkNamespaces.unsupported();
if (unsupported) console.warn(`cluster reliability skipped: ${unsupported}`);

describe('Faults of a three-node NATS JetStream cluster under a steady write load', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await receiver.stop();
  });

  (unsupported ? it.skip : it)(
    'loses no acknowledged write through kill -9 of a node, then of the stream leader',
    async () => {
      let cluster: NatsCluster | undefined;
      let harness: NatsUser | undefined;
      const startCluster = async (logDir: string, users: NatsUser[]) => {
        harness = users.find((user) => user.permissions === undefined);
        const started = await NatsCluster.start(logDir, users);
        cluster = started;
        await started.waitUntilReady(harnessOptions(harness)).catch(async (error: unknown) => {
          await started.stop();
          throw error;
        });
        return started;
      };
      const system = await System.start({
        nats: startCluster,
        env: { SESAME_JETSTREAM_REPLICAS: '3' },
        processEnv: { webhooks: fastDeliveryEnv, gateway: gatewayOnCluster },
      });
      let running: WriteLoad | undefined;
      let failed = true;
      try {
        const nats = cluster as NatsCluster;
        const options = harnessOptions(harness);
        const identityStream = jetStreamName(system.prefix, 'identity');
        const webhook = await FollowedWebhook.create(system, receiver);
        const before = await visibleState(system);
        const load = new WriteLoad(system, await system.token(), 'Cluster', receiver.url);
        running = load;
        load.start();
        await load.acknowledgedSince(Date.now());
        const recovery: Record<string, Record<string, number>> = {};

        const killAndRestart = async (fault: string, node: number) => {
          await sleep(phaseMs);
          const faultAt = Date.now();
          await nats.killNode(node);
          const firstWriteMs = await load.acknowledgedSince(Date.now());
          await sleep(phaseMs);
          await nats.startNode(node);
          await nats.waitUntilCurrent(options);
          recovery[fault] = { node: node + 1, firstWriteMs, caughtUpMs: Date.now() - faultAt };
        };
        await killAndRestart('kill -9 of a node', 2);
        await killAndRestart('kill -9 of the stream leader', await nats.leaderOf(identityStream, options));

        await sleep(phaseMs);
        await load.stop();
        // The services' read models take the other services' events through their feeds: the
        // live state is compared with one rebuilt from zero once those have caught up.
        recovery['event feeds after the load'] = { caughtUpMs: await nats.waitUntilFeedsCaughtUp(options) };
        await verify(system, load, before, webhook, recovery);
        failed = false;
      } finally {
        await running?.stop();
        // A failed run's own error is the one to read, not a stop's complaint about its aftermath.
        await system.stop().catch((error: unknown) => {
          if (!failed) throw error;
          console.error(error);
        });
      }
    },
    testTimeoutMs,
  );
});

function harnessOptions(harness: NatsUser | undefined) {
  if (!harness || typeof harness.password !== 'string') throw new Error('no harness NATS user');
  return { user: harness.user, pass: harness.password, name: 'sesame-test.cluster' };
}
