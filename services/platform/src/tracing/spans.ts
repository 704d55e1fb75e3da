import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Attributes, Context } from '@opentelemetry/api';
import { headers as natsHeaders } from 'nats';
import type { MsgHdrs } from 'nats';

export { SpanKind };

/** One tracer for every Sesame process; the process is the resource's `service.name`. */
const tracer = () => trace.getTracer('sesame');

/**
 * The current span as a W3C `traceparent` (with `tracestate` when there is one), to carry where
 * no header goes: event metadata, stored jobs. Undefined when tracing is off or no span is active.
 */
export function currentTraceContext(): { traceparent?: string; tracestate?: string } {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent
    ? { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) }
    : {};
}

/** The context a carried `traceparent` continues (the root context without one). */
export function contextOfTraceparent(carried: { traceparent?: string; tracestate?: string } | undefined): Context {
  if (!carried?.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carried);
}

/** NATS headers carrying the current span (undefined when there is nothing to carry). */
export function traceHeaders(): MsgHdrs | undefined {
  const carried = currentTraceContext();
  if (!carried.traceparent) return undefined;
  const headers = natsHeaders();
  headers.set('traceparent', carried.traceparent);
  if (carried.tracestate) headers.set('tracestate', carried.tracestate);
  return headers;
}

/** The context NATS message headers continue. */
export function contextOfHeaders(headers: MsgHdrs | undefined): Context {
  const traceparent = headers?.get('traceparent');
  return contextOfTraceparent(traceparent ? { traceparent, tracestate: headers?.get('tracestate') || undefined } : undefined);
}

export interface SpanOptions {
  kind: SpanKind;
  /** Names, codes and counts only: never ids of people, addresses, tokens or secrets. */
  attributes?: Attributes;
  /** The context to continue; the active one by default. */
  parent?: Context;
}

/**
 * Runs `work` in a new active span: it ends when `work` settles, with an error status (and the
 * error's class, not its message, which may quote input) when it throws.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: options.kind, attributes: options.attributes ?? {} }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs `work` in a span continuing a carried trace context (an event's metadata, a message's
 * headers); without one, runs it untraced rather than opening a new trace for every background item.
 */
export function continueTrace<T>(
  carried: { traceparent?: string; tracestate?: string } | undefined,
  name: string,
  options: Omit<SpanOptions, 'parent'>,
  work: () => Promise<T>,
): Promise<T> {
  if (!carried?.traceparent) return work();
  return inSpan(name, { ...options, parent: contextOfTraceparent(carried) }, work);
}

/** A span opened in one callback and ended in another (an HTTP request's hooks). */
export interface OpenSpan {
  /** The trace's id while tracing is on (undefined when spans are not recorded). */
  traceId: string | undefined;
  /** Runs `work` with this span active, so what it calls continues the trace. */
  run<T>(work: () => T): T;
  end(attributes: Attributes, failed: boolean): void;
}

/** Opens a span continuing the W3C trace context of incoming HTTP headers (a new trace without one). */
export function openSpanFromHeaders(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  options: SpanOptions,
): OpenSpan {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes ?? {} }, parent);
  const active = trace.setSpan(parent, span);
  return {
    traceId: span.isRecording() ? span.spanContext().traceId : undefined,
    run: (work) => context.with(active, work),
    end: (attributes, failed) => {
      span.setAttributes(attributes);
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
