import { z } from '@sesame/contracts';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const port = z.coerce.number().int().min(0).max(65535);

/** Settings every process reads (DESIGN.md section 4); each process extends it. */
export const baseConfigSchema = z.object({
  SESAME_MODE: z.enum(['development', 'production']).default('development'),
  SESAME_NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  SESAME_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,30}$/, 'must be lowercase letters, digits and underscores, starting with a letter')
    .default('sesame'),
  SESAME_EVENT_STORE: z.enum(['jetstream', 'eventstoredb']).default('jetstream'),
  SESAME_EVENTSTOREDB_URL: z.string().optional(),
  SESAME_JETSTREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  SESAME_READ_MODEL: z.enum(['memory', 'mongodb']).default('memory'),
  SESAME_MONGODB_URL: z.string().optional(),
  SESAME_MONGODB_DATABASE: z.string().default('sesame'),
  SESAME_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESAME_HTTP_HOST: z.string().default('127.0.0.1'),
  SESAME_HTTP_PORT: port.optional(),
  SESAME_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SESAME_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Mail port: `outbox` (local, logged and readable) or `smtp` (production). */
  SESAME_MAIL_TRANSPORT: z.enum(['outbox', 'smtp']).default('outbox'),
  SESAME_SMTP_URL: z.string().optional(),
  SESAME_MAIL_FROM: z.string().min(3).default('Sesame <no-reply@sesame.localhost>'),
  /** SMS port: `outbox` (local, logged and readable) or `http` (an HTTP SMS provider, production). */
  SESAME_SMS_TRANSPORT: z.enum(['outbox', 'http']).default('outbox'),
  SESAME_SMS_HTTP_URL: z.url().optional(),
  SESAME_SMS_HTTP_TOKEN: z.string().optional(),
  /** Sender id or number of text messages. */
  SESAME_SMS_FROM: z.string().min(1).max(20).default('Sesame'),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export function requireStoreUrls(config: BaseConfig, ctx: z.RefinementCtx): void {
  if (config.SESAME_EVENT_STORE === 'eventstoredb' && !config.SESAME_EVENTSTOREDB_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['SESAME_EVENTSTOREDB_URL'],
      message: 'is required when SESAME_EVENT_STORE=eventstoredb',
    });
  if (config.SESAME_READ_MODEL === 'mongodb' && !config.SESAME_MONGODB_URL)
    ctx.addIssue({ code: 'custom', path: ['SESAME_MONGODB_URL'], message: 'is required when SESAME_READ_MODEL=mongodb' });
  if (config.SESAME_MAIL_TRANSPORT === 'smtp' && !config.SESAME_SMTP_URL)
    ctx.addIssue({ code: 'custom', path: ['SESAME_SMTP_URL'], message: 'is required when SESAME_MAIL_TRANSPORT=smtp' });
  if (config.SESAME_SMS_TRANSPORT === 'http' && !config.SESAME_SMS_HTTP_URL)
    ctx.addIssue({ code: 'custom', path: ['SESAME_SMS_HTTP_URL'], message: 'is required when SESAME_SMS_TRANSPORT=http' });
}

/**
 * Parses the environment with a process's schema. On failure, throws a ConfigError listing
 * every bad variable, so that the process stops at once with a readable message.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || 'environment'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
