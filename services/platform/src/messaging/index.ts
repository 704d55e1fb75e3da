/**
 * `@sesame/platform/messaging`: NATS itself: permissions and server configuration, the RPC server and
 * client transport (Nest's NATS transport), event feeds, consume loops, the JetStream outbox,
 * key-value buckets, rate limits and parked commits. The router, replies, the typed RPC client and the
 * connection options are in the root entry.
 */
export * from './nats-permissions';
export * from './nats-server-config';
export * from './nats-rpc';
export * from './idempotent-answers';
export * from './consume-loop';
export * from './event-feed';
export * from '../outbox/jetstream-outbox';
export * from './kv-buckets';
export * from './jetstream-errors';
export * from '../rate-limits/kv-rate-limiter';
export * from '../projections/parked-commits';
