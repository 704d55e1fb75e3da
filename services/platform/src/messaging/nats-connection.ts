import { readFileSync } from 'node:fs';
import { credsAuthenticator } from 'nats';
import type { ConnectionOptions } from 'nats';
import { serviceNames } from '@sesame/contracts';
import type { BaseConfig } from '../config/config';
import { shareCancelledError } from './nats-cancelled-error';

/** Who connects to NATS: each process has its own user, with the permissions of `natsPermissions`. */
export const natsRoles = ['gateway', ...serviceNames, 'cli'] as const;
export type NatsRole = (typeof natsRoles)[number];

/**
 * Replies to a role's requests (service answers, JetStream API answers and deliveries) arrive on
 * `_INBOX.<prefix>.<role>.*`, which only that role may subscribe to: no process reads another's answers.
 */
export const natsInboxPrefix = (prefix: string, role: NatsRole) => `_INBOX.${prefix}.${role}`;

export type NatsSettings = Pick<
  BaseConfig,
  | 'SESAME_NATS_URL'
  | 'SESAME_PREFIX'
  | 'SESAME_NATS_USER'
  | 'SESAME_NATS_PASSWORD'
  | 'SESAME_NATS_CREDS'
  | 'SESAME_NATS_TLS_CA'
  | 'SESAME_NATS_TLS_CERT'
  | 'SESAME_NATS_TLS_KEY'
>;

/**
 * How often a connection asks its server for a PONG, and how many may go unanswered before it
 * gives the server up and reconnects to another of the cluster. A node cut off by a partition
 * resets nothing: its connections just stall. With nats.js's defaults (2 minutes, 2) a process on
 * such a node would notice only after 4 to 6 minutes; now after 20 to 30 s (a shorter partition,
 * 10 s in test/reliability/cluster.reliability.spec.ts, is ridden out on the same connection).
 */
export const natsPingIntervalMs = 10_000;
export const natsMaxPingsOut = 2;

/**
 * Options of every NATS connection a process opens (its event store, RPC server and client, key-value
 * buckets, queues): its credentials, TLS, its own inbox prefix, reconnecting for ever, pinging its server.
 * `SESAME_NATS_URL` may list several servers of a cluster, separated by commas. No async traces:
 * nats.js would otherwise build an Error (a stack trace) for every request and JetStream publish in
 * case it times out, about 5 % of the webhooks service's CPU under load (`--cpu-prof`); nor one
 * for every request it completes (`shareCancelledError`).
 */
export function natsConnectionOptions(
  config: NatsSettings,
  role: NatsRole,
  name = `${config.SESAME_PREFIX}.${role}`,
): ConnectionOptions {
  shareCancelledError();
  const tls = {
    ...(config.SESAME_NATS_TLS_CA ? { caFile: config.SESAME_NATS_TLS_CA } : {}),
    ...(config.SESAME_NATS_TLS_CERT ? { certFile: config.SESAME_NATS_TLS_CERT } : {}),
    ...(config.SESAME_NATS_TLS_KEY ? { keyFile: config.SESAME_NATS_TLS_KEY } : {}),
  };
  return {
    servers: config.SESAME_NATS_URL.split(',').map((url) => url.trim()),
    name,
    inboxPrefix: natsInboxPrefix(config.SESAME_PREFIX, role),
    maxReconnectAttempts: -1,
    pingInterval: natsPingIntervalMs,
    maxPingOut: natsMaxPingsOut,
    noAsyncTraces: true,
    ...(config.SESAME_NATS_USER ? { user: config.SESAME_NATS_USER, pass: config.SESAME_NATS_PASSWORD } : {}),
    ...(config.SESAME_NATS_CREDS ? { authenticator: credsAuthenticator(readFileSync(config.SESAME_NATS_CREDS)) } : {}),
    ...(Object.keys(tls).length > 0 ? { tls } : {}),
  };
}
