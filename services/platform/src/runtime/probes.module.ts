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
  metrics: Metrics;
}

export const PROBES = Symbol('PROBES');

/** `/healthz` (the process is alive), `/readyz` (it can serve) and `/metrics` (Prometheus). */
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

  @Get('metrics')
  async metrics(@Res() reply: FastifyReply) {
    const { registry } = this.probes.metrics;
    await reply.header('content-type', registry.contentType).send(await registry.metrics());
  }
}

@Module({})
export class ProbesModule {
  static forRoot(probes: Probes): DynamicModule {
    return { module: ProbesModule, controllers: [ProbesController], providers: [{ provide: PROBES, useValue: probes }] };
  }
}
