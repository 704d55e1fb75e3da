import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the events feed operations (API reference), checked against their schemas. */
export const eventsExamples = {
  listEvents: {
    response: {
      data: [
        {
          id: '5f0c8e2a-7b1d-4c3e-9a6f-2d4b8c0e1f3a',
          code: 'redirect_uri.created',
          data: {
            redirect_uri: {
              id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
              url: 'https://app.acme.com/callback',
              inserted_at: '2025-03-04T09:12:45.118Z',
            },
            default: true,
          },
          organization_id: null,
          organization_domain: null,
          environment: 'sandbox',
          actor: { type: 'api_key', id: 'client_2b7f1c9e4a6d', ip: '203.0.113.7', user_agent: 'acme-backend/2.3' },
          occurred_at: '2025-03-04T09:12:45.118Z',
          description: 'A redirect URI was added',
        },
      ],
      list_metadata: { after: 'eyJpZGVudGl0eSI6WzQyLDBdfQ', has_more: false },
    },
    error: apiErrorExample('unauthorized'),
  },
  exportEvents: {
    response: {
      id: '5f0c8e2a-7b1d-4c3e-9a6f-2d4b8c0e1f3a',
      code: 'redirect_uri.created',
      data: {
        redirect_uri: {
          id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
          url: 'https://app.acme.com/callback',
          inserted_at: '2025-03-04T09:12:45.118Z',
        },
        default: true,
      },
      organization_id: null,
      organization_domain: null,
      environment: 'sandbox',
      actor: { type: 'api_key', id: 'client_2b7f1c9e4a6d' },
      occurred_at: '2025-03-04T09:12:45.118Z',
      description: 'A redirect URI was added',
    },
    error: apiErrorExample('unauthorized'),
  },
  replayWebhook: {
    response: {
      data: [
        {
          id: 1043,
          args: {
            __type__: 'Event',
            __domain__: null,
            __environment__: 'sandbox',
            id: '5f0c8e2a-7b1d-4c3e-9a6f-2d4b8c0e1f3a',
            code: 'redirect_uri.created',
            data: {
              redirect_uri: {
                id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
                url: 'https://app.acme.com/callback',
                inserted_at: '2025-03-04T09:12:45.118Z',
              },
              default: true,
            },
            issued_at: '2025-03-04T09:12:45.118Z',
            webhook_id: 'webhook_2b7f1c9e4a6d',
            client_id: 'client_2b7f1c9e4a6d',
            description: 'A redirect URI was added',
          },
          attempt: 0,
          max_attempts: 5,
          state: 'available',
          attempted_at: null,
          scheduled_at: '2025-03-05T10:00:00.000Z',
          completed_at: null,
          cancelled_at: null,
          discarded_at: null,
          inserted_at: '2025-03-05T10:00:00.000Z',
        },
      ],
      list_metadata: { after: 'eyJpZGVudGl0eSI6WzQyLDBdfQ', has_more: false },
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
