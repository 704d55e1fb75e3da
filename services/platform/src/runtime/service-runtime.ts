import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { eventSubjectPrefix, subjects } from '@sesame/contracts';
import type { ActorRef, ServiceName } from '@sesame/contracts';
import type { BaseConfig } from '../config/config';
import { requestActor } from '../decider/actor';
import { Aggregate } from '../decider/aggregate';
import type { AggregateType } from '../decider/aggregate';
import type { CommandHandlerDeps } from '../decider/command-handler';
import type { DomainEvent, EventMetadata, EventStore, Subscription } from '../event-store/event-store.port';
import { startEsdbRelay } from '../event-store/esdb-relay';
import { JetStreamEventStore } from '../event-store/jetstream.event-store';
import { instrumentEventStore } from '../event-store/instrumented.event-store';
import { createLogger } from '../logging/logger';
import type { Logger } from '../logging/logger';
import { exitWhenIdle } from './exit-when-idle';
import { natsConnectionOptions } from '../messaging/nats-connection';
import { createRpcServer } from '../messaging/nats-rpc';
import { IdempotentAnswers } from '../messaging/idempotent-answers';
import { ok } from '../messaging/replies';
import { RpcRouter } from '../messaging/rpc-router';
import type { RequestContext } from '../messaging/rpc-router';
import { Metrics } from '../metrics/metrics';
import { KvParkedCommits } from '../projections/parked-commits';
import { ProjectionRunner } from '../projections/projection-runner';
import type { ReadModelStore } from '../read-model/read-model.port';
import { startTracing } from '../tracing/tracer-provider';
import type { Tracing } from '../tracing/tracer-provider';
import { NestPinoLogger } from './nest-logger';
import { defaultHttpPorts } from './ports';
import { ProbesModule } from './probes.module';
import { jetStreamName, openEventStore, openReadModels } from './stores';

/** How long a read that names another replica's write (`Sesame-Consistency-Token`) waits for this replica's read models at most. */
const readAfterTimeoutMs = 2_000;

/**
 * Everything a service process shares: NATS, its event store and read models (as configured),
 * the projection runner, the RPC router, probes and metrics, and graceful shutdown.
 */
export class ServiceRuntime {
  private app?: NestFastifyApplication;
  private relay?: Subscription;
  private stopping?: Promise<boolean>;
  /** Whether the RPC server takes requests (once the projections caught up). */
  private serving = false;
  private readonly shutdownHooks: (() => Promise<void>)[] = [];
  private readonly closeHooks: (() => Promise<unknown>)[] = [];

  private constructor(
    readonly service: ServiceName,
    readonly config: BaseConfig,
    readonly logger: Logger,
    readonly nc: NatsConnection,
    readonly eventStore: EventStore,
    readonly readModels: ReadModelStore,
    readonly projections: ProjectionRunner,
    readonly router: RpcRouter,
    readonly metrics: Metrics,
    private readonly tracing: Tracing,
  ) {}

  static async create(service: ServiceName, config: BaseConfig): Promise<ServiceRuntime> {
    const logger = createLogger(service, config.SESAME_LOG_LEVEL);
    const tracing = startTracing(service);
    const metrics = new Metrics(service);
    const nc = await connect(natsConnectionOptions(config, service));
    const eventStore = instrumentEventStore(await openEventStore(service, config, nc, logger), metrics.appendDuration);
    const readModels = await openReadModels(service, config);
    const projections = new ProjectionRunner(eventStore, readModels, logger, {
      service,
      parkedCommits: await KvParkedCommits.open(nc, config.SESAME_PREFIX, config.SESAME_JETSTREAM_REPLICAS),
      metrics,
    });
    const router = new RpcRouter(logger, metrics, {
      service,
      reached: (position) => projections.reached(position, readAfterTimeoutMs),
    });
    return new ServiceRuntime(service, config, logger, nc, eventStore, readModels, projections, router, metrics, tracing);
  }

  /** Dependencies of `handleCommand`: appends go through this store, results into the projections. */
  commandDeps<State>(): CommandHandlerDeps<State> {
    return {
      eventStore: this.eventStore,
      afterCommit: async (stream, result) => {
        const last = result.events.at(-1);
        if (!last) return;
        await this.projections.applyInline(stream, result.revision, result.state, {
          position: 0n,
          events: result.events,
        });
      },
    };
  }

  /** The aggregates of a type, changed through this store with their projections applied inline. */
  aggregate<State, Command, Event extends DomainEvent>(
    type: AggregateType<State, Command, Event>,
  ): Aggregate<State, Command, Event> {
    return new Aggregate(this.commandDeps<State>(), type);
  }

  /**
   * Metadata of the events a request appends; their actor is the request's (`requestActor`), or
   * `who` when the handler knows better.
   */
  metadata(context: Pick<RequestContext, 'meta'>, who?: ActorRef): EventMetadata {
    const actor = requestActor(context.meta, who);
    return {
      correlationId: context.meta.correlationId,
      causationId: randomUUID(),
      ...(context.meta.environment ? { environment: context.meta.environment } : {}),
      ...(actor ? { actor } : {}),
      occurredAt: new Date().toISOString(),
    };
  }

  async start(): Promise<void> {
    this.router.on(subjects.health(this.service), async () =>
      ok({ service: this.service, status: 'ok', ready: this.projections.isReady() }),
    );
    await this.projections.start();
    if (this.config.SESAME_EVENT_STORE === 'eventstoredb') await this.startRelay();
    this.metrics.sampleProjectionLag(() => this.projections.lagByReadModel());

    const app = await NestFactory.create<NestFastifyApplication>(
      ProbesModule.forRoot({
        metrics: this.metrics,
        readiness: async () => {
          const checks = { nats: !this.nc.isClosed(), projections: this.projections.isReady(), requests: this.serving };
          return { ready: Object.values(checks).every(Boolean), checks };
        },
      }),
      new FastifyAdapter(),
      { logger: new NestPinoLogger(this.logger) },
    );
    app.connectMicroservice(
      {
        strategy: createRpcServer(this.router, {
          nats: natsConnectionOptions(this.config, this.service, `${this.config.SESAME_PREFIX}.${this.service}.rpc`),
          prefix: this.config.SESAME_PREFIX,
          queue: this.service,
          gracePeriodMs: this.config.SESAME_SHUTDOWN_GRACE_MS,
          answers: new IdempotentAnswers(this.nc.jetstream(), this.config.SESAME_PREFIX, this.logger),
        }),
      },
      { inheritAppConfig: true },
    );
    // Probes first (not ready while the projections catch up); requests only once the read models
    // hold every commit stored before the start: a restarted replica answering from a half-built
    // read model would call an existing organization unknown. Meanwhile NATS hands the requests to
    // the other replicas of the queue group.
    const port = this.config.SESAME_HTTP_PORT ?? defaultHttpPorts[this.service];
    await app.listen(port, this.config.SESAME_HTTP_HOST);
    this.app = app;
    await this.projections.whenReady();
    await app.startAllMicroservices();
    this.serving = true;
    this.logger.info({ port, prefix: this.config.SESAME_PREFIX }, `${this.service} started`);
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.once(signal, () => void this.shutdown(signal).then((clean) => clean && exitWhenIdle(this.logger, this.service)));
  }

  /** EventStoreDB mode: publish committed events to the service's JetStream stream for other services. */
  private async startRelay(): Promise<void> {
    const subjectPrefix = eventSubjectPrefix(this.config.SESAME_PREFIX, this.service);
    await JetStreamEventStore.open(this.nc, {
      streamName: jetStreamName(this.config.SESAME_PREFIX, this.service),
      subjectPrefix,
      replicas: this.config.SESAME_JETSTREAM_REPLICAS,
    });
    this.relay = await startEsdbRelay({
      eventStore: this.eventStore,
      js: this.nc.jetstream(),
      subjectPrefix,
      readModels: this.readModels,
      logger: this.logger,
    });
  }

  /** Work to stop before the connections close (background workers), in registration order. */
  onShutdown(hook: () => Promise<void>): void {
    this.shutdownHooks.push(hook);
  }

  /**
   * What the handlers use besides the runtime's own connection (another NATS client, a worker pool),
   * closed once in-flight requests are done: anything left open would keep the process alive until
   * the shutdown deadline kills it.
   */
  onClose(hook: () => Promise<unknown>): void {
    this.closeHooks.push(hook);
  }

  /**
   * Stops taking requests, lets in-flight ones finish, saves checkpoints, closes connections;
   * answers whether all of it went well.
   */
  shutdown(reason: string): Promise<boolean> {
    this.stopping ??= (async () => {
      this.logger.info({ reason }, `${this.service} stopping`);
      // Each step named, so that a shutdown the deadline cuts short says where it hung.
      let step = 'shutdown hooks';
      const deadline = setTimeout(() => {
        this.logger.error({ step }, `${this.service} not stopped within its deadline; exiting`);
        process.exit(1);
      }, this.config.SESAME_SHUTDOWN_GRACE_MS + 5_000);
      deadline.unref();
      const steps: [string, () => Promise<unknown>][] = [
        [
          'shutdown hooks',
          async () => {
            for (const hook of this.shutdownHooks) await hook();
          },
        ],
        ['closing the RPC server', async () => this.app?.close()],
        ['close hooks (event feeds, loops)', async () => Promise.all(this.closeHooks.map((hook) => hook()))],
        ['stopping the relay', async () => this.relay?.stop()],
        ['stopping the projections', async () => this.projections.stop()],
        ['closing the event store', async () => this.eventStore.close()],
        ['closing the read models', async () => this.readModels.close()],
        ['draining the NATS connection', async () => this.nc.drain()],
        ['flushing traces', async () => this.tracing.shutdown()],
      ];
      try {
        for (const [name, run] of steps) {
          step = name;
          await run();
        }
        this.logger.info(`${this.service} stopped`);
        return true;
      } catch (error) {
        this.logger.error({ err: error }, 'error while stopping');
        return false;
      }
    })();
    return this.stopping;
  }
}

/** Runs a service's `main`, turning a start-up failure into a readable message and exit code 1. */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    const message = error instanceof Error ? (error.name === 'ConfigError' ? error.message : error.stack) : String(error);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
}
