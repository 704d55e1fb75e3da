import pino from 'pino';

export type Logger = pino.Logger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Structured JSON logs on stdout, one line per entry, tagged with the process name. */
export function createLogger(service: string, level: LogLevel = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: ['*.client_secret', '*.password', '*.plain_text', '*.authorization', '*.secret'], censor: '[redacted]' },
  });
}

/** The logger of one request: every line carries its correlation id. */
export function requestLogger(logger: Logger, correlationId: string): Logger {
  return logger.child({ correlationId });
}
