import { randomBytes } from 'node:crypto';
import { natsRoles } from './nats-connection';
import type { NatsRole } from './nats-connection';
import { natsPermissions } from './nats-permissions';
import type { NatsPermissions } from './nats-permissions';

/** A value nats-server reads from its environment when it loads the configuration (`$NAME`). */
export interface NatsVariable {
  variable: string;
}

export interface NatsUser {
  user: string;
  password: string | NatsVariable;
  /** None: every subject (an operator's or a test harness's user). */
  permissions?: NatsPermissions;
}

export interface NatsServerOptions {
  host: string;
  port: number;
  storeDir: string;
  users: NatsUser[];
  /** Server certificate and key files; with `ca`, clients must present a certificate it signed. */
  tls?: { cert: string; key: string; ca?: string };
}

type ConfigValue = string | number | boolean | NatsVariable | ConfigValue[] | { [key: string]: ConfigValue | undefined };

const isVariable = (value: unknown): value is NatsVariable =>
  typeof value === 'object' && value !== null && 'variable' in value && Object.keys(value).length === 1;

/** nats-server's configuration syntax: JSON-like maps and lists, `$NAME` for a variable from its environment. */
function render(value: ConfigValue, indent = ''): string {
  const inner = `${indent}  `;
  if (isVariable(value)) return `$${value.variable}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${render(item, inner)}`).join('\n')}\n${indent}]`;
  const entries = Object.entries(value).filter((entry): entry is [string, ConfigValue] => entry[1] !== undefined);
  return `{\n${entries.map(([key, item]) => `${inner}${key}: ${render(item, inner)}`).join('\n')}\n${indent}}`;
}

/** A password for a NATS user: 192 random bits. */
export const randomNatsPassword = () => randomBytes(24).toString('base64url');

/** One password per process, for a configuration that `npm start` or a test harness writes itself. */
export const randomNatsPasswords = (): Record<NatsRole, string> =>
  Object.fromEntries(natsRoles.map((role) => [role, randomNatsPassword()])) as Record<NatsRole, string>;

/** The environment variable a deployment gives nats-server a process's password in, e.g. `SESAME_NATS_PASSWORD_AUTH_METHODS`. */
export const natsPasswordVariable = (role: NatsRole) => `SESAME_NATS_PASSWORD_${role.toUpperCase().replace(/-/g, '_')}`;

/** The Sesame users of a deployment prefix: one per process (user name = role), with its permissions. */
export function sesameNatsUsers(prefix: string, passwords: Record<NatsRole, string | NatsVariable>): NatsUser[] {
  const permissions = natsPermissions(prefix);
  return natsRoles.map((role) => ({ user: role, password: passwords[role], permissions: permissions[role] }));
}

/** The `authorization` block: one user per process, each with its permissions. */
export function natsAuthorization(users: NatsUser[]): string {
  const entries = users.map(({ user, password, permissions }) => ({
    user,
    password,
    ...(permissions ? { permissions: { ...permissions } } : {}),
  }));
  return `authorization ${render({ users: entries })}\n`;
}

/** A single nats-server with JetStream and these users (local runs and system tests). */
export function natsServerConfig(options: NatsServerOptions): string {
  const tls = options.tls
    ? `tls ${render({ cert_file: options.tls.cert, key_file: options.tls.key, ca_file: options.tls.ca, verify: Boolean(options.tls.ca) })}\n`
    : '';
  return [
    `listen: ${JSON.stringify(`${options.host}:${options.port}`)}\n`,
    `jetstream ${render({ store_dir: options.storeDir })}\n`,
    tls,
    natsAuthorization(options.users),
  ].join('');
}
