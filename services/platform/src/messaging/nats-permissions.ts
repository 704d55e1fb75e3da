import {
  eventSubjectPrefix,
  idempotencyBucket,
  operations,
  organizationProvisioners,
  serviceNames,
  subjects,
  wireSubject,
} from '@sesame/contracts';
import type { ServiceName } from '@sesame/contracts';
import { mailQueueStreamName } from '../mail/queued.mailer';
import { JetStreamOutbox } from '../outbox/jetstream-outbox';
import { jetStreamName } from '../runtime/stores';
import { natsInboxPrefix } from './nats-connection';
import type { NatsRole } from './nats-connection';

/** What one NATS user may do: the `permissions` of a user in nats-server's `authorization` block. */
export interface NatsPermissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[] };
  /** Answer requests: publish once to the reply subject of a message received (services only; their callers' inboxes are also allowed). */
  allow_responses: boolean;
}

/** Subjects the gateway calls besides the operation table's: readiness, JWKS, onboarding sessions, dev outboxes. */
const gatewayExtraSubjects = [
  ...serviceNames.map((service) => subjects.health(service)),
  subjects.authMethods.jwks,
  subjects.identity.admins.authenticateOnboardingSession,
  subjects.identity.devOutbox,
  subjects.identity.devSmsOutbox,
];

const { organizations, redirectUris, userMetakeys, users, groups } = subjects.identity;

/** The other services' subjects each service calls (its identity client's calls): a new call needs its line here. */
const serviceCalls: Record<ServiceName, string[]> = {
  identity: [],
  'auth-methods': [
    organizations.get,
    organizations.forSignIn,
    redirectUris.check,
    userMetakeys.active,
    users.findById,
    users.findByEmail,
    users.findOrCreate,
    users.provision,
    users.modify,
    users.count,
    users.recordIdentity,
  ],
  'directory-sync': [
    organizations.get,
    users.findById,
    users.findByEmail,
    users.provision,
    users.modify,
    users.deactivate,
    users.remove,
    groups.get,
    groups.create,
    groups.update,
    groups.delete,
  ],
  webhooks: [organizations.get],
};

/** The services whose events the webhooks service publishes (to webhooks and to the events feed). */
const eventFeedSources = ['identity', 'auth-methods', 'directory-sync'] as const;

/** Durable consumers a service keeps on another service's events stream (`subscribeToServiceEvents`). */
const eventFeeds: Record<ServiceName, { source: ServiceName; consumer: string }[]> = {
  identity: organizationProvisioners.map((source) => ({ source, consumer: `identity-organization-provisioning-from-${source}` })),
  'auth-methods': [{ source: 'identity', consumer: 'auth-methods-organization-deletion' }],
  'directory-sync': [{ source: 'identity', consumer: 'directory-sync-organization-deletion' }],
  webhooks: eventFeedSources.map((source) => ({ source, consumer: `webhooks-from-${source}` })),
};

/**
 * Another service's events stream a service follows with ordered consumers of its own (no shared
 * durable): the events feed of the webhooks service (services/webhooks/src/events-feed).
 */
const followedStreams: Record<ServiceName, ServiceName[]> = {
  identity: [],
  'auth-methods': [],
  'directory-sync': [],
  webhooks: [...eventFeedSources],
};

/**
 * Who calls a service: its answers go to the callers' inboxes. Granted by subject, not by
 * `allow_responses`: that option makes nats-server record every message delivered to the service
 * with a reply subject (each JetStream message a consumer delivers, too) and prune that record as
 * it grows, which cost nats-server about 0.15 ms of CPU per key-value write in a watched bucket
 * (`bench/webhooks.bench.ts`); and it forgets requests delivered before a restart, refusing the
 * answers sent just after.
 */
const callersOf = (service: ServiceName): NatsRole[] => [
  'gateway',
  ...serviceNames.filter((caller) => serviceCalls[caller].some((subject) => subject.startsWith(`${service}.`))),
];

const api = '$JS.API';
const unique = (subjects: string[]) => [...new Set(subjects)];

/** Create a stream when missing and read its state: no update, purge or delete. */
const ownStream = (stream: string) => [`${api}.STREAM.CREATE.${stream}`, `${api}.STREAM.INFO.${stream}`];

/**
 * Read a stream: direct and stored message gets, consumers of any name (ordered readers, durables),
 * and the flow-control answers of push consumers (a key-value watch) on it.
 */
const readStream = (stream: string) => [
  `$JS.FC.${stream}.>`,
  `${api}.STREAM.INFO.${stream}`,
  `${api}.DIRECT.GET.${stream}`,
  `${api}.DIRECT.GET.${stream}.>`,
  `${api}.STREAM.MSG.GET.${stream}`,
  `${api}.CONSUMER.CREATE.${stream}`,
  `${api}.CONSUMER.CREATE.${stream}.>`,
  `${api}.CONSUMER.DURABLE.CREATE.${stream}.*`,
  `${api}.CONSUMER.INFO.${stream}.*`,
  `${api}.CONSUMER.DELETE.${stream}.*`,
  `${api}.CONSUMER.MSG.NEXT.${stream}.*`,
  `$JS.ACK.${stream}.>`,
];

/** One durable consumer on another service's stream: create it, pull from it, acknowledge. */
const durableOn = (stream: string, consumer: string) => [
  `${api}.CONSUMER.CREATE.${stream}.${consumer}`,
  `${api}.CONSUMER.CREATE.${stream}.${consumer}.>`,
  `${api}.CONSUMER.DURABLE.CREATE.${stream}.${consumer}`,
  `${api}.CONSUMER.INFO.${stream}.${consumer}`,
  `${api}.CONSUMER.MSG.NEXT.${stream}.${consumer}`,
  `$JS.ACK.${stream}.${consumer}.>`,
];

/**
 * A JetStream key-value bucket of one process: its stream (`KV_<bucket>`), gets and writes of its
 * keys, and consumers only when the process watches the bucket.
 */
const kvBucket = (bucket: string, options: { watch: boolean }) => [
  ...ownStream(`KV_${bucket}`),
  ...(options.watch
    ? readStream(`KV_${bucket}`)
    : [`${api}.DIRECT.GET.KV_${bucket}`, `${api}.DIRECT.GET.KV_${bucket}.>`, `${api}.STREAM.MSG.GET.KV_${bucket}`]),
  `$KV.${bucket}.>`,
];

/**
 * The parked-commits bucket shared by the services (`<prefix>_parked_commits`): each service opens it
 * and writes only its own keys (`<service>.<read model>.<event id>`); operators list it.
 */
const parkedCommits = (prefix: string, service: ServiceName) => [
  ...ownStream(`KV_${prefix}_parked_commits`),
  `$KV.${prefix}_parked_commits.${service}.>`,
];

/**
 * A follower of another service's events stream (`followServiceEvents`): ordered consumers
 * created only with a filter within `subjects` (the create subject names it, nats-server 2.9),
 * pulled into the follower's inbox, and the stream's state (the subscription's stall check). A
 * follower of the whole stream (`>`) may also get its messages from the stream's leader (stored-
 * message gets by sequence: how a subscription reads on past a silent consumer); a follower of
 * part of it gets none. No direct gets, and no pulling from or deleting the other services'
 * durable consumers on that stream (`ownDurables` aside).
 */
function streamFollower(prefix: string, source: ServiceName, subjects: string, ownDurables: string[] = []) {
  const stream = jetStreamName(prefix, source);
  const durables = serviceNames
    .flatMap((service) => eventFeeds[service].filter((feed) => feed.source === source).map(({ consumer }) => consumer))
    .filter((consumer) => !ownDurables.includes(consumer));
  return {
    allow: [
      `${api}.STREAM.INFO.${stream}`,
      `${api}.CONSUMER.CREATE.${stream}.*.${eventSubjectPrefix(prefix, source)}.events.${subjects}`,
      `${api}.CONSUMER.INFO.${stream}.*`,
      `${api}.CONSUMER.DELETE.${stream}.*`,
      `${api}.CONSUMER.MSG.NEXT.${stream}.*`,
      ...(subjects === '>' ? [`${api}.STREAM.MSG.GET.${stream}`] : []),
    ],
    deny: durables.flatMap((consumer) => [
      `${api}.CONSUMER.MSG.NEXT.${stream}.${consumer}`,
      `${api}.CONSUMER.DELETE.${stream}.${consumer}`,
    ]),
  };
}

/** The gateway's reader of API-key revocations (`gateway/src/auth/revoked-api-keys.ts`): API-key events only. */
const revocationReader = (prefix: string) => streamFollower(prefix, 'auth-methods', 'apiKey.>');

/** The deployment's mail queue, outbox and SMS outbox, shared by the services that send. */
function messageStreams(prefix: string) {
  const outbox = JetStreamOutbox.streamName(prefix, 'outbox');
  const smsOutbox = JetStreamOutbox.streamName(prefix, 'sms_outbox');
  const mailQueue = mailQueueStreamName(prefix);
  return {
    outbox: [...ownStream(outbox), `${prefix}.outbox.>`],
    readOutboxes: [...readStream(outbox), ...readStream(smsOutbox)],
    smsOutbox: [...ownStream(smsOutbox), `${prefix}.sms-outbox.>`],
    mailQueue: [
      ...ownStream(mailQueue),
      ...durableOn(mailQueue, 'mail-sender'),
      `${api}.CONSUMER.UPDATE.${mailQueue}.mail-sender`,
      `${prefix}.mail-queue`,
    ],
  };
}

function servicePermissions(prefix: string, service: ServiceName): NatsPermissions {
  const events = jetStreamName(prefix, service);
  const shared = messageStreams(prefix);
  const sends = {
    identity: [...shared.outbox, ...shared.readOutboxes, ...shared.mailQueue],
    'auth-methods': [...shared.outbox, ...shared.smsOutbox, ...shared.mailQueue],
    'directory-sync': [],
    webhooks: kvBucket(`${prefix}_webhook_jobs`, { watch: true }),
  }[service];
  const ownDurables = eventFeeds[service].map(({ consumer }) => consumer);
  const followed = followedStreams[service].map((source) => streamFollower(prefix, source, '>', ownDurables));
  return {
    publish: {
      ...(followed.length > 0 ? { deny: unique(followed.flatMap(({ deny }) => deny)) } : {}),
      allow: unique([
        `${api}.INFO`,
        ...ownStream(events),
        ...readStream(events),
        `${eventSubjectPrefix(prefix, service)}.events.>`,
        ...eventFeeds[service].flatMap(({ source, consumer }) => durableOn(jetStreamName(prefix, source), consumer)),
        ...serviceCalls[service].map((subject) => wireSubject(prefix, subject)),
        ...sends,
        ...parkedCommits(prefix, service),
        ...followed.flatMap(({ allow }) => allow),
        // Answers to requests sent with Idempotency-Key, written (never read) under the gateway's claim.
        `$KV.${idempotencyBucket(prefix)}.*`,
        ...callersOf(service).map((caller) => `${natsInboxPrefix(prefix, caller)}.>`),
      ]),
    },
    subscribe: { allow: [`${prefix}.${service}.>`, `${natsInboxPrefix(prefix, service)}.>`] },
    allow_responses: false,
  };
}

/**
 * The NATS permissions of every Sesame process for a deployment prefix, least privilege: the gateway
 * publishes only the requests it makes (the operation table's subjects and a few more) and uses its
 * rate-limit and idempotency buckets; each service subscribes only to its own subjects, answers requests, calls the
 * subjects it needs of the others, appends only to its own events stream and reads another service's
 * events only through its named durable consumers, and answers into its callers' inboxes; the `sesame`
 * CLI reads the auth-methods stream and appends only API-key commits. Nobody may delete or purge a
 * stream. Each role receives replies on its own inbox prefix only.
 */
export function natsPermissions(prefix: string): Record<NatsRole, NatsPermissions> {
  const authMethodsEvents = jetStreamName(prefix, 'auth-methods');
  const services = Object.fromEntries(serviceNames.map((service) => [service, servicePermissions(prefix, service)]));
  const gatewaySubjects = [...operations.map((operation) => operation.subject), ...gatewayExtraSubjects];
  const revocations = revocationReader(prefix);
  return {
    gateway: {
      publish: {
        allow: unique([
          `${api}.INFO`,
          ...gatewaySubjects.map((subject) => wireSubject(prefix, subject)),
          ...kvBucket(`${prefix}_rate_limits`, { watch: false }),
          ...kvBucket(idempotencyBucket(prefix), { watch: false }),
          ...revocations.allow,
        ]),
        deny: revocations.deny,
      },
      subscribe: { allow: [`${natsInboxPrefix(prefix, 'gateway')}.>`] },
      allow_responses: false,
    },
    ...(services as Record<ServiceName, NatsPermissions>),
    cli: {
      publish: {
        allow: unique([
          `${api}.INFO`,
          ...ownStream(authMethodsEvents),
          ...readStream(authMethodsEvents),
          `${eventSubjectPrefix(prefix, 'auth-methods')}.events.apiKey.>`,
        ]),
      },
      subscribe: { allow: [`${natsInboxPrefix(prefix, 'cli')}.>`] },
      allow_responses: false,
    },
  };
}
