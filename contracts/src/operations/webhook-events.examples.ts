import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the webhook-events operations (API reference), checked against their schemas. */
export const webhookEventsExamples = {
  listWebhookEvents: {
    response: {
      data: [
        {
          id: 1042,
          args: {
            __type__: 'Event',
            __domain__: null,
            __environment__: 'sandbox',
            id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d',
            code: 'directory_sync.user.provisioning.success',
            data: {
              test: true,
            },
            issued_at: '2025-03-04T09:12:45.118Z',
            webhook_id: 'webhook_2b7f1c9e4a6d',
            client_id: null,
            description: 'Test event',
          },
          attempt: 0,
          max_attempts: 5,
          state: 'available',
          attempted_at: null,
          scheduled_at: '2025-03-04T09:12:45.118Z',
          completed_at: null,
          cancelled_at: null,
          discarded_at: null,
          inserted_at: '2025-03-04T09:12:45.118Z',
        },
      ],
      pagination: {
        current_page: 1,
        current_pages: 1,
        next_page: null,
        prev_page: null,
        per_page: 10,
        total_pages: 1,
      },
      total: 1,
    },
    error: apiErrorExample('unauthorized'),
  },
  triggerTestWebhookEvent: {
    request: {
      event_code: 'directory_sync.user.provisioning.success',
    },
    response: {
      data: [
        {
          id: 1042,
          args: {
            __type__: 'Event',
            __domain__: null,
            __environment__: 'sandbox',
            id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d',
            code: 'directory_sync.user.provisioning.success',
            data: {
              test: true,
            },
            issued_at: '2025-03-04T09:12:45.118Z',
            webhook_id: 'webhook_2b7f1c9e4a6d',
            client_id: null,
            description: 'Test event',
          },
          attempt: 0,
          max_attempts: 5,
          state: 'available',
          attempted_at: null,
          scheduled_at: '2025-03-04T09:12:45.118Z',
          completed_at: null,
          cancelled_at: null,
          discarded_at: null,
          inserted_at: '2025-03-04T09:12:45.118Z',
        },
      ],
      total: 1,
    },
    error: apiErrorExample('invalid_idempotency_key'),
  },
  retryWebhookEvent: {
    response: {
      id: 1042,
      args: {
        __type__: 'Event',
        __domain__: null,
        __environment__: 'sandbox',
        id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d',
        code: 'directory_sync.user.provisioning.success',
        data: {
          test: true,
        },
        issued_at: '2025-03-04T09:12:45.118Z',
        webhook_id: 'webhook_2b7f1c9e4a6d',
        client_id: null,
        description: 'Test event',
      },
      attempt: 1,
      max_attempts: 5,
      state: 'retryable',
      attempted_at: '2025-03-04T09:12:46.201Z',
      scheduled_at: '2025-03-04T09:13:16.201Z',
      completed_at: null,
      cancelled_at: null,
      discarded_at: null,
      inserted_at: '2025-03-04T09:12:45.118Z',
    },
    error: {
      status: 404,
      body: {
        error: {
          type: 'resource_not_found',
          message: 'Resource Not Found',
          doc_urls: ['https://docs.sesame.example.com/api'],
        },
      },
    },
  },
  cancelWebhookEvent: {
    response: {
      id: 1042,
      args: {
        __type__: 'Event',
        __domain__: null,
        __environment__: 'sandbox',
        id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d',
        code: 'directory_sync.user.provisioning.success',
        data: {
          test: true,
        },
        issued_at: '2025-03-04T09:12:45.118Z',
        webhook_id: 'webhook_2b7f1c9e4a6d',
        client_id: null,
        description: 'Test event',
      },
      attempt: 1,
      max_attempts: 5,
      state: 'cancelled',
      attempted_at: '2025-03-04T09:12:46.201Z',
      scheduled_at: '2025-03-04T09:13:16.201Z',
      completed_at: null,
      cancelled_at: '2025-03-04T09:13:02.940Z',
      discarded_at: null,
      inserted_at: '2025-03-04T09:12:45.118Z',
    },
    error: {
      status: 404,
      body: {
        error: {
          type: 'resource_not_found',
          message: 'Resource Not Found',
          doc_urls: ['https://docs.sesame.example.com/api'],
        },
      },
    },
  },
} satisfies Record<string, OperationExamples>;
