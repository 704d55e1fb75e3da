import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the user-metakeys operations (API reference), checked against their schemas. */
export const userMetakeysExamples = {
  createUserMetakey: {
    request: {
      name: 'plan',
      type: 'string',
    },
    response: {
      name: 'plan',
      required: false,
      type: 'string',
    },
    error: apiErrorExample('invalid_idempotency_key'),
  },
  listUserMetakeys: {
    response: {
      data: [
        {
          name: 'plan',
          required: false,
          type: 'string',
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
  deleteUserMetakey: {
    request: {
      name: 'plan',
    },
    response: {
      deleted: true,
      resource: {
        name: 'plan',
        required: false,
        type: 'string',
      },
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
