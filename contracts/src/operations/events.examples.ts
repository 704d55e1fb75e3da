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
          actor: { type: 'api_key', id: 'client_2b7f1c9e4a6d' },
          occurred_at: '2025-03-04T09:12:45.118Z',
          description: 'A redirect URI was added',
        },
      ],
      list_metadata: { after: 'eyJpZGVudGl0eSI6WzQyLDBdfQ', has_more: false },
    },
    error: apiErrorExample('unauthorized'),
  },
} satisfies Record<string, OperationExamples>;
