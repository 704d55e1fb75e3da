import type { ConnectionOptions } from 'nats';
import type { NatsCluster } from './nats-cluster';
import type { WriteLoad } from './write-load';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Faults of a NATS cluster under a write load, each timed: how long until the first write
 * acknowledged after the fault (`firstWriteMs`, from the fault), until every stream's replicas are
 * current again (`currentMs`, from the restart or heal) and until every event feed with work to
 * do has acknowledged a commit since (`feedsMovingMs`, from the restart or heal, the load going
 * on), with the largest backlog of a feed then (`backlog`: they lag the load, one commit at a time).
 */
export class ClusterFaults {
  readonly recovery: Record<string, Record<string, number>> = {};

  constructor(
    private readonly nats: NatsCluster,
    private readonly load: WriteLoad,
    private readonly options: ConnectionOptions,
    /** Load before each fault. */
    private readonly phaseMs: number,
  ) {}

  /** kill -9 of node `node`, restarted on its store after `phaseMs`. */
  kill(name: string, node: number): Promise<void> {
    return this.fault(
      name,
      node,
      () => this.nats.killNode(node),
      () => this.nats.startNode(node),
      this.phaseMs,
    );
  }

  /** Node `node` cut off (its veth down) for `lastsMs`, then healed. */
  partition(name: string, node: number, lastsMs: number): Promise<void> {
    return this.fault(
      name,
      node,
      () => this.nats.partition(node),
      () => this.nats.heal(node),
      lastsMs,
    );
  }

  private async fault(
    name: string,
    node: number,
    inflict: () => Promise<void> | void,
    restore: () => Promise<void> | void,
    lastsMs: number,
  ): Promise<void> {
    await sleep(this.phaseMs);
    const faultAt = Date.now();
    await inflict();
    const firstWrite = this.load.acknowledgedSince(Date.now());
    await sleep(lastsMs);
    const restoredAt = Date.now();
    await restore();
    await this.nats.waitUntilCurrent(this.options, 180_000);
    const currentMs = Date.now() - restoredAt;
    const { movingMs, backlog } = await this.nats.waitUntilFeedsMove(this.options);
    const firstWriteMs = await firstWrite;
    this.recovery[name] = {
      node: node + 1,
      lastedMs: restoredAt - faultAt,
      firstWriteMs,
      currentMs,
      feedsMovingMs: currentMs + movingMs,
      backlog,
    };
    console.log(`cluster fault ${JSON.stringify({ [name]: this.recovery[name] })}`);
  }
}
