import { z } from '../zod';
import { integerInputSchema } from '../common/primitives.schema';
import { webhookEventSchema } from '../entities/webhook.schema';
import { codesOfPattern, decodeEventFeedCursor, feedEventSchema } from '../entities/event-feed.schema';
import { actorTypeSchema } from '../events/actor';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { eventsExamples } from './events.examples';

export const defaultEventsLimit = 10;
export const maxEventsLimit = 100;
/** Events per page the webhooks service answers the gateway streaming an export. */
export const exportEventsPageSize = 500;
/** The longest range an export covers. */
export const maxExportRangeDays = 366;

/** `user.created,user.updated`, `events[]=user.*&events[]=organization.created` or a JSON array: codes and `prefix.*` patterns. */
const eventPatternsInputSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',') : value),
  z.array(
    z
      .string()
      .trim()
      .min(1)
      .refine((pattern) => codesOfPattern(pattern).length > 0, 'is not a known event code'),
  ),
);

const datetimeInputSchema = z.iso.datetime({ offset: true });

const afterInputSchema = z
  .string()
  .refine((cursor) => decodeEventFeedCursor(cursor) !== null, 'is not a cursor of this feed')
  .optional()
  .meta({ description: 'The `list_metadata.after` of the previous page; without it, the oldest events kept' });
const limitInputSchema = integerInputSchema
  .pipe(z.number().min(1).max(maxEventsLimit))
  .optional()
  .meta({ description: `Events per page (default ${defaultEventsLimit})` });

export const listEventsQuerySchema = z.object({
  after: afterInputSchema,
  limit: limitInputSchema,
  organization_id: z.string().min(1).max(100).optional().meta({ description: 'Only the events of this organization' }),
  events: eventPatternsInputSchema
    .optional()
    .meta({ description: 'Only these codes: a comma list or an array; `user.*` names every code starting with `user.`' }),
  actor_type: actorTypeSchema.optional().meta({ description: 'Only the events caused by this kind of actor' }),
  actor_id: z.string().min(1).max(200).optional().meta({ description: 'Only the events caused by this actor' }),
  range_start: datetimeInputSchema.optional().meta({ description: 'Only the events that occurred at or after this instant' }),
  range_end: datetimeInputSchema.optional().meta({ description: 'Only the events that occurred before this instant' }),
});
export type ListEventsQuery = z.infer<typeof listEventsQuerySchema>;

export const eventFeedPageSchema = z
  .object({
    data: z.array(feedEventSchema),
    list_metadata: z.object({
      after: z.string().meta({ description: 'The cursor of the next page: pass it as `after` (also to poll for newer events)' }),
      has_more: z.boolean().meta({ description: 'Whether more events were already there past this page' }),
    }),
  })
  .meta({ id: 'FeedEventList' });
export type EventFeedPage = z.infer<typeof eventFeedPageSchema>;

export const listEvents = defineOperation({
  operationId: 'listEvents',
  method: 'get',
  path: '/api/v2/events',
  tag: 'Events',
  summary: 'List events',
  description:
    'The public events of the environment (the payloads webhooks receive), oldest first, with who caused them. ' +
    'A page continues exactly where the previous one stopped: events written meanwhile are neither skipped nor repeated. ' +
    'Events are kept 90 days by default (`SESAME_EVENTS_RETENTION_MS`).',
  auth: 'api_key',
  scope: 'webhooks:read',
  subject: subjects.webhooks.events.list,
  request: { query: listEventsQuerySchema },
  response: { status: 200, description: 'A page of events and the cursor of the next one', schema: eventFeedPageSchema },
  errors: ['unauthorized'],
  examples: eventsExamples.listEvents,
});

export const exportEventsQuerySchema = z
  .object({
    range_start: datetimeInputSchema.meta({ description: 'The events that occurred at or after this instant' }),
    range_end: datetimeInputSchema.meta({
      description: `The events that occurred before this instant (at most ${maxExportRangeDays} days after \`range_start\`)`,
    }),
    organization_id: listEventsQuerySchema.shape.organization_id,
    events: listEventsQuerySchema.shape.events,
    after: afterInputSchema.meta({
      description: 'Resume an interrupted export: the `after` of its last line (an error line); without it, from `range_start`',
    }),
  })
  .superRefine((query, context) => {
    const span = new Date(query.range_end).getTime() - new Date(query.range_start).getTime();
    if (span <= 0) context.addIssue({ code: 'custom', path: ['range_end'], message: 'must be after range_start' });
    else if (span > maxExportRangeDays * 24 * 3600 * 1000)
      context.addIssue({
        code: 'custom',
        path: ['range_end'],
        message: `must be at most ${maxExportRangeDays} days after range_start`,
      });
  });
export type ExportEventsQuery = z.infer<typeof exportEventsQuerySchema>;

export const exportEvents = defineOperation({
  operationId: 'exportEvents',
  method: 'get',
  path: '/api/v2/events/export',
  tag: 'Events',
  summary: 'Export events (NDJSON)',
  description:
    'The events of a time range (an audit export), oldest first, one JSON event per line (`application/x-ndjson`), ' +
    'the same events `GET /api/v2/events` lists with the same filters. Streamed: any number of events in bounded memory, ' +
    'at the pace the client reads. An error after the first line ends the stream with a last line ' +
    '`{"error": {...}, "after": "<cursor>"}`: ask again with that `after` to resume.',
  auth: 'api_key',
  scope: 'webhooks:read',
  subject: subjects.webhooks.events.exportPage,
  streamPages: true,
  request: { query: exportEventsQuerySchema },
  response: {
    status: 200,
    description: 'The events, one per line',
    schema: feedEventSchema,
    contentType: 'application/x-ndjson',
  },
  errors: ['unauthorized'],
  examples: eventsExamples.exportEvents,
});

export const replayWebhookQuerySchema = z.object({ after: afterInputSchema, limit: limitInputSchema });
export const replayWebhookParamsSchema = z.object({ id: z.string().min(1).max(100).meta({ description: 'Id of the webhook' }) });

export const webhookReplaySchema = z
  .object({
    data: z.array(webhookEventSchema),
    list_metadata: eventFeedPageSchema.shape.list_metadata,
  })
  .meta({ id: 'WebhookReplay' });

export const replayWebhook = defineOperation({
  operationId: 'replayWebhook',
  method: 'post',
  path: '/api/v2/webhooks/{id}/replay',
  tag: 'Webhook Events',
  summary: 'Replay events to a webhook',
  description:
    'Sends the webhook again the events of the feed it receives (its codes, its organization) after the cursor `after` ' +
    '(one page of `limit` events, oldest first), each with its original `webhook-id` (the event id). ' +
    'A delivery job still pending is left as it is; a finished one is retried. Answers the jobs and the cursor of the next page.',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhooks.replay,
  request: { params: replayWebhookParamsSchema, query: replayWebhookQuerySchema },
  response: {
    status: 200,
    description: 'The jobs of the replayed events and the cursor of the next page',
    schema: webhookReplaySchema,
  },
  errors: ['unauthorized', 'resource_not_found'],
  examples: eventsExamples.replayWebhook,
});

export const eventOperations = [listEvents, exportEvents, replayWebhook];
