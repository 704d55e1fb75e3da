import type { Commit, EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { parseStreamName } from '../event-store/stream-name';
import type { Logger } from '../logging/logger';
import type { Metrics } from '../metrics/metrics';
import type { ReadModelStore } from '../read-model/read-model.port';
import { MemoryParkedCommits } from './parked-commits';
import type { ParkedCommit, ParkedCommits } from './parked-commits';
import type { Projection } from './projection';
import { SpanKind, continueTrace } from '../tracing/spans';

interface Checkpoint {
  _id: string;
  position: string;
}

const checkpointEveryMs = 1_000;

export interface ProjectionRunnerOptions {
  /** The service whose projections these are, as parked commits name it. */
  service?: string;
  /** Where commits a projection cannot apply are set aside (default: kept in memory). */
  parkedCommits?: ParkedCommits;
  /** Counts parked commits (`sesame_projection_parked_total`). */
  metrics?: Pick<Metrics, 'projectionParked'>;
  /** Tries at a failing commit, doubling the delay from `retryDelayMs`, before it may be parked. */
  attempts?: number;
  retryDelayMs?: number;
}

/**
 * Keeps a service's projections up to date: inline after each of its own appends, and from a
 * checkpointed subscription to its event store for everything else (other replicas, the CLI,
 * a restart). A projection whose version changed starts again from position 0. A commit a
 * projection cannot apply is parked (`applyOrPark`): one bad commit never holds back the ones after it.
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

  private readonly parkedCommits: ParkedCommits;

  constructor(
    private readonly eventStore: EventStore,
    private readonly store: ReadModelStore,
    private readonly logger: Logger,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.parkedCommits = options.parkedCommits ?? new MemoryParkedCommits();
  }

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
      if (projection.categories.includes(category))
        await continueTrace(
          first.metadata,
          `project ${projection.name}`,
          { kind: SpanKind.CONSUMER, attributes: { 'sesame.stream.category': category } },
          () => this.applyOrPark(projection, commit),
        );
      this.checkpoints.set(key, commit.position);
    }
  }

  /**
   * A commit that still fails after a few tries while the event store and the read models both
   * answer fails because of what it holds (a document the read model cannot store, an event the
   * projection cannot fold): retrying it forever would hold back every later commit and keep a
   * restarted service from ever becoming ready. It is parked (recorded for operators, counted,
   * logged once) and the projection goes on. While a store does not answer, the error goes up and
   * the subscription tries the commit again later, however long the outage lasts.
   */
  private async applyOrPark(projection: Projection, commit: Commit): Promise<void> {
    const attempts = this.options.attempts ?? 3;
    const delayMs = this.options.retryDelayMs ?? 100;
    for (let attempt = 1; ; attempt++) {
      try {
        return await projection.apply(commit);
      } catch (error) {
        if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, delayMs * 2 ** (attempt - 1)));
        else if (await this.storesAnswer(projection)) return this.park(projection, commit, error);
        else throw error;
      }
    }
  }

  private async storesAnswer(projection: Projection): Promise<boolean> {
    try {
      await this.eventStore.headPosition();
      await this.store.collection<Checkpoint>('_checkpoints').get(keyOf(projection));
      return true;
    } catch {
      return false;
    }
  }

  private async park(projection: Projection, commit: Commit, error: unknown): Promise<void> {
    const first = commit.events[0] as RecordedEvent;
    const parked: ParkedCommit = {
      service: this.options.service ?? 'unknown',
      read_model: keyOf(projection),
      event_id: first.id,
      event_type: first.type,
      stream: first.stream,
      revision: first.revision,
      position: String(commit.position),
      error: describe(error),
      parked_at: new Date().toISOString(),
    };
    await this.parkedCommits.park(parked);
    this.options.metrics?.projectionParked.inc({ read_model: parked.read_model });
    const { service: _service, ...fields } = parked; // the logger names the service already
    this.logger.error(fields, 'projection commit parked: it cannot be applied, the projection goes on without it');
  }

  private advance(position: bigint): void {
    this.position = position;
    if (this.positionWaiters.length > 0) {
      const reached = this.positionWaiters.filter((waiter) => waiter.position <= position);
      this.positionWaiters = this.positionWaiters.filter((waiter) => waiter.position > position);
      for (const waiter of reached) waiter.resolve();
    }
    if (!this.ready && position >= this.head) this.markReady();
    // A read model that does not answer must not become an unhandled rejection: the next save retries.
    if (Date.now() - this.lastSaved > checkpointEveryMs)
      this.saveCheckpoints().catch((error: unknown) => this.logger.warn({ err: error }, 'projection checkpoints not saved'));
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

  /**
   * Resolves once the subscription has applied every commit up to `position` (a write another
   * replica acknowledged), or after `timeoutMs`: answers whether it got there.
   */
  reached(position: bigint, timeoutMs: number): Promise<boolean> {
    if (this.position >= position || this.projections.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { position, resolve: () => resolve(true) };
      this.positionWaiters.push(waiter);
      setTimeout(() => {
        this.positionWaiters = this.positionWaiters.filter((other) => other !== waiter);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  /** Commits of the store not yet applied, as of the last head reading. */
  async lag(): Promise<bigint> {
    this.head = await this.eventStore.headPosition();
    return this.head > this.position ? this.head - this.position : 0n;
  }

  /**
   * Commits not yet applied to each read model (`<name>_v<version>`), as of this head reading: a
   * read model has applied everything up to its checkpoint, and everything before the position the
   * subscription reached.
   */
  async lagByReadModel(): Promise<Map<string, bigint>> {
    const head = await this.lag().then(() => this.head);
    return new Map(
      this.projections.map((projection) => {
        const checkpoint = this.checkpoints.get(keyOf(projection)) ?? 0n;
        const applied = checkpoint > this.position ? checkpoint : this.position;
        return [keyOf(projection), head > applied ? head - applied : 0n];
      }),
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    await this.saveCheckpoints();
  }
}

/** Name and message of an error, never its other fields (a driver error can carry the document). */
function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 500);
}

function keyOf(projection: Projection): string {
  return `${projection.name}_v${projection.version}`;
}
