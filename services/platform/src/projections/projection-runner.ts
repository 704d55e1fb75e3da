import type { Commit, EventStore, Subscription } from '../event-store/event-store.port';
import { parseStreamName } from '../event-store/stream-name';
import type { Logger } from '../logging/logger';
import type { ReadModelStore } from '../read-model/read-model.port';
import type { Projection } from './projection';

interface Checkpoint {
  _id: string;
  position: string;
}

const checkpointEveryMs = 1_000;

/**
 * Keeps a service's projections up to date: inline after each of its own appends, and from a
 * checkpointed subscription to its event store for everything else (other replicas, the CLI,
 * a restart). A projection whose version changed starts again from position 0.
 */
export class ProjectionRunner {
  private readonly projections: Projection[] = [];
  private readonly checkpoints = new Map<string, bigint>();
  private subscription?: Subscription;
  private position = 0n;
  private head = 0n;
  private ready = false;
  private lastSaved = 0;
  private readonly readyWaiters: (() => void)[] = [];
  private positionWaiters: { position: bigint; resolve: () => void }[] = [];

  constructor(
    private readonly eventStore: EventStore,
    private readonly store: ReadModelStore,
    private readonly logger: Logger,
  ) {}

  register<P extends Projection>(projection: P): P {
    this.projections.push(projection);
    return projection;
  }

  /** Applies a command's result inline, so that a read right after the write sees it. */
  async applyInline(stream: string, revision: number, state: unknown, commit: Commit): Promise<void> {
    const { category } = parseStreamName(stream);
    for (const projection of this.projections) {
      if (!projection.categories.includes(category)) continue;
      if (projection.applyState) await projection.applyState(stream, revision, state);
      else await projection.apply(commit);
    }
  }

  async start(): Promise<void> {
    const saved = this.store.collection<Checkpoint>('_checkpoints');
    for (const projection of this.projections) {
      await projection.init();
      const checkpoint = await saved.get(keyOf(projection));
      this.checkpoints.set(keyOf(projection), BigInt(checkpoint?.position ?? '0'));
    }
    const positions = [...this.checkpoints.values()];
    this.position = positions.reduce((min, value) => (value < min ? value : min), positions[0] ?? 0n);
    this.head = await this.eventStore.headPosition();
    if (this.projections.length === 0) return this.markReady();
    this.logger.info({ from: String(this.position), head: String(this.head) }, 'projections catching up');
    if (this.position >= this.head) this.markReady();
    this.subscription = this.eventStore.subscribeToAll({
      from: this.position,
      onCommit: (commit) => this.dispatch(commit),
      onPosition: (position) => this.advance(position),
    });
  }

  private async dispatch(commit: Commit): Promise<void> {
    const first = commit.events[0];
    if (!first) return;
    const { category } = parseStreamName(first.stream);
    for (const projection of this.projections) {
      const key = keyOf(projection);
      if ((this.checkpoints.get(key) ?? 0n) >= commit.position) continue;
      if (projection.categories.includes(category)) await projection.apply(commit);
      this.checkpoints.set(key, commit.position);
    }
  }

  private advance(position: bigint): void {
    this.position = position;
    if (this.positionWaiters.length > 0) {
      const reached = this.positionWaiters.filter((waiter) => waiter.position <= position);
      this.positionWaiters = this.positionWaiters.filter((waiter) => waiter.position > position);
      for (const waiter of reached) waiter.resolve();
    }
    if (!this.ready && position >= this.head) this.markReady();
    if (Date.now() - this.lastSaved > checkpointEveryMs) void this.saveCheckpoints();
  }

  private markReady(): void {
    this.ready = true;
    this.logger.info({ position: String(this.position) }, 'projections caught up');
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private async saveCheckpoints(): Promise<void> {
    this.lastSaved = Date.now();
    const saved = this.store.collection<Checkpoint>('_checkpoints');
    for (const [key, position] of this.checkpoints) await saved.upsert({ _id: key, position: String(position) });
  }

  isReady(): boolean {
    return this.ready;
  }

  whenReady(): Promise<void> {
    return this.ready ? Promise.resolve() : new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * Resolves once every commit stored before this call is applied: a reaction that queries the
   * read models (a cascade, a clean-up) sees at least everything written before it started.
   */
  async caughtUp(): Promise<void> {
    const head = await this.eventStore.headPosition();
    if (this.position >= head || this.projections.length === 0) return;
    await new Promise<void>((resolve) => this.positionWaiters.push({ position: head, resolve }));
  }

  /** Commits of the store not yet applied, as of the last head reading. */
  async lag(): Promise<bigint> {
    this.head = await this.eventStore.headPosition();
    return this.head > this.position ? this.head - this.position : 0n;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    await this.saveCheckpoints();
  }
}

function keyOf(projection: Projection): string {
  return `${projection.name}_v${projection.version}`;
}
