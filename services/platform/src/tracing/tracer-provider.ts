import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  /** Exports the spans still buffered, then stops exporting. */
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

const disabled: Tracing = { shutdown: async () => undefined };

/**
 * Whether spans are exported: off by default, on once an OTLP endpoint is configured by the
 * standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. Only OTLP over HTTP is exported.
 */
export function tracingEnabled(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((name) => name.trim().toLowerCase());
  if (!exporters.includes('otlp')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Registers this process's tracer provider: W3C trace context, spans kept in async-local context,
 * batched to OTLP/HTTP. The exporter and batch processor read the other `OTEL_*` variables
 * themselves (headers, timeouts, `OTEL_BSP_SCHEDULE_DELAY`); `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` override the name `sesame-<process>` and add attributes. Without an endpoint nothing is
 * registered and the API's no-op tracer costs next to nothing.
 */
export function startTracing(processName: string, env: Env = process.env): Tracing {
  if (!tracingEnabled(env)) return disabled;
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': `sesame-${processName}` }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
