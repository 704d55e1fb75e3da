/**
 * `@sesame/platform`: the light core every process may load (no database, mail or Nest driver):
 * configuration, logging, crypto, deciders and aggregates, the event-store and read-model ports
 * with their in-memory adapters, projections, the RPC router and the typed RPC client, metrics,
 * spans, messages, NATS connection options. Adapters and the process runtime are subpaths: `/event-store`, `/read-model`,
 * `/stores`, `/messaging`, `/mail`, `/sms`, `/http`, `/runtime`; `/testing` holds the
 * jest kits of the test tiers (resolved by jest and the root tsconfig only, never built).
 */
export * from './config/config';
export * from './runtime/ports';
export * from './logging/logger';
export * from './logging/redaction';
export * from './crypto/secrets';
export * from './crypto/encryption';
export * from './crypto/name-based-uuid';
export * from './crypto/erasure-hash';
export * from './event-store/event-store.port';
export * from './event-store/stream-name';
export * from './event-store/memory.event-store';
export * from './read-model/read-model.port';
export * from './read-model/memory.read-model';
export * from './read-model/find-page';
export * from './decider/decider';
export * from './decider/command-handler';
export * from './decider/aggregate';
export * from './decider/revision-claims';
export * from './decider/reservations';
export * from './decider/organization-deletion';
export * from './decider/tenant';
export * from './decider/actor';
export * from './decider/organization-acknowledgement';
export * from './projections/projection';
export * from './projections/aggregate-view';
export * from './projections/projection-runner';
export * from './projections/keyed-mutex';
export * from './messaging/replies';
export * from './messaging/rpc-router';
export * from './messaging/rpc-unavailable';
export * from './messaging/typed-rpc-client';
export * from './messaging/organization-id';
export * from './messaging/nats-connection';
export * from './metrics/metrics';
export * from './tracing/spans';
export * from './mail/mail.port';
export * from './sms/sms.port';
export * from './rate-limits/sliding-window';
export * from './messages';
