/**
 * `@sesame/platform/runtime`: a service process (Nest with Fastify, probes, NATS, the stores the
 * configuration names, tracing export). The stores alone: `/stores`.
 */
export * from './service-runtime';
export * from './exit-when-idle';
export * from './probes.module';
export * from './nest-logger';
export * from '../tracing/tracer-provider';
