import { tracingEnabled } from './tracer-provider';

describe('tracingEnabled: off by default, on with an OTLP endpoint in the standard variables', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'console, otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, false],
  ])('given %j, tracing is on: %s', (env, expected) => {
    expect(tracingEnabled(env)).toBe(expected);
  });
});
