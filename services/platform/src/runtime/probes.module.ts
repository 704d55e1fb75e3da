import { Controller, Get, Inject, Module, Res } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Metrics } from '../metrics/metrics';

export interface Readiness {
  ready: boolean;
  checks: Record<string, boolean>;
}

export interface Probes {
  readiness(): Promise<Readiness>;
  /** Served on `/metrics` when given: a management port's probes (the gateway's public port serves none). */
  metrics?: Metrics;
}

export const PROBES = Symbol('PROBES');

/** `/healthz` (the process is alive) and `/readyz` (it can serve). */
@Controller()
class ProbesController {
  constructor(@Inject(PROBES) private readonly probes: Probes) {}

  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    const readiness = await this.probes.readiness();
    reply.status(readiness.ready ? 200 : 503);
    return { status: readiness.ready ? 'ready' : 'not_ready', checks: readiness.checks };
  }
}

/** `/metrics` (Prometheus). */
@Controller()
class MetricsController {
  constructor(@Inject(PROBES) private readonly probes: Required<Probes>) {}

  @Get('metrics')
  async metrics(@Res() reply: FastifyReply) {
    const { registry } = this.probes.metrics;
    await reply.header('content-type', registry.contentType).send(await registry.metrics());
  }
}

@Module({})
export class ProbesModule {
  static forRoot(probes: Probes): DynamicModule {
    return {
      module: ProbesModule,
      controllers: probes.metrics ? [ProbesController, MetricsController] : [ProbesController],
      providers: [{ provide: PROBES, useValue: probes }],
    };
  }
}
