import pino from 'pino';
import { redactSecrets, redactStrings, redactText } from './redaction';

export type Logger = pino.Logger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Structured JSON logs on stdout (or `destination`), one line per entry, tagged with the process
 * name. Secrets never reach a line: secret fields are redacted at any depth, and links and
 * credentials inside messages, fields and errors lose their secret parts (`redaction.ts`).
 */
export function createLogger(service: string, level: LogLevel = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: (entry) => redactSecrets(entry) },
      serializers: {
        err: (error: Error) => redactStrings({ ...pino.stdSerializers.err(error) }),
        msg: (message: unknown) => (typeof message === 'string' ? redactText(message) : message),
      },
    },
    destination,
  );
}

/** The logger of one request: every line carries its correlation id. */
export function requestLogger(logger: Logger, correlationId: string): Logger {
  return logger.child({ correlationId });
}
