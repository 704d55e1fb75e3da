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
  /** This process's NATS user and password (each process has its own, with its own subject permissions). */
  SESAME_NATS_USER: z.string().optional(),
  SESAME_NATS_PASSWORD: z.string().optional(),
  /** Instead of a user and password: a NATS credentials file (JWT and nkey seed, decentralized authentication). */
  SESAME_NATS_CREDS: z.string().optional(),
  /** TLS to NATS: the CA certificate file that verifies the server, and this process's certificate and key for mutual TLS. */
  SESAME_NATS_TLS_CA: z.string().optional(),
  SESAME_NATS_TLS_CERT: z.string().optional(),
  SESAME_NATS_TLS_KEY: z.string().optional(),
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
  /** `true` lets a production process mail and text through the outboxes (an evaluation install); see `refuseOutboxesInProduction`. */
  SESAME_ALLOW_OUTBOX_IN_PRODUCTION: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export function requireStoreUrls(config: BaseConfig, ctx: z.RefinementCtx): void {
  requireNatsCredentials(config, ctx);
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

const outboxRefusals = {
  mail: {
    variable: 'SESAME_MAIL_TRANSPORT',
    message:
      'is outbox in production: emails (sign-in links, reset codes, invitations) would only be kept in NATS, never sent. Set SESAME_MAIL_TRANSPORT=smtp and SESAME_SMTP_URL, or SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true to run so on purpose',
  },
  sms: {
    variable: 'SESAME_SMS_TRANSPORT',
    message:
      'is outbox in production: text messages (one-time codes) would only be kept in NATS, never sent. Set SESAME_SMS_TRANSPORT=http and SESAME_SMS_HTTP_URL, or SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true to run so on purpose',
  },
} as const;

/**
 * The refinement of a process that mails (`mail`) or texts (`sms`): in production it refuses to
 * start on an outbox, which sends nothing and keeps every message (codes and links included) in
 * NATS, unless `SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true` says so on purpose.
 */
export function refuseOutboxesInProduction(...ports: (keyof typeof outboxRefusals)[]) {
  return (config: BaseConfig, ctx: z.RefinementCtx): void => {
    if (config.SESAME_MODE !== 'production' || config.SESAME_ALLOW_OUTBOX_IN_PRODUCTION) return;
    const transports = { mail: config.SESAME_MAIL_TRANSPORT, sms: config.SESAME_SMS_TRANSPORT };
    for (const port of ports)
      if (transports[port] === 'outbox')
        ctx.addIssue({ code: 'custom', path: [outboxRefusals[port].variable], message: outboxRefusals[port].message });
  };
}

/**
 * NATS credentials come as a user with its password or as a credentials file, and a production
 * process refuses to start without them: whoever reaches an open NATS can act as any service.
 */
export function requireNatsCredentials(config: BaseConfig, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (config.SESAME_NATS_USER && !config.SESAME_NATS_PASSWORD) issue('SESAME_NATS_PASSWORD', 'is required with SESAME_NATS_USER');
  if (config.SESAME_NATS_PASSWORD && !config.SESAME_NATS_USER) issue('SESAME_NATS_USER', 'is required with SESAME_NATS_PASSWORD');
  if (config.SESAME_NATS_USER && config.SESAME_NATS_CREDS)
    issue('SESAME_NATS_CREDS', 'cannot be combined with SESAME_NATS_USER: give one or the other');
  if (Boolean(config.SESAME_NATS_TLS_CERT) !== Boolean(config.SESAME_NATS_TLS_KEY))
    issue(
      config.SESAME_NATS_TLS_CERT ? 'SESAME_NATS_TLS_KEY' : 'SESAME_NATS_TLS_CERT',
      'SESAME_NATS_TLS_CERT and SESAME_NATS_TLS_KEY go together',
    );
  if (config.SESAME_MODE === 'production' && !config.SESAME_NATS_USER && !config.SESAME_NATS_CREDS)
    issue(
      'SESAME_NATS_USER',
      'is required in production (or SESAME_NATS_CREDS): a NATS without credentials lets anyone who reaches it act as any service',
    );
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
