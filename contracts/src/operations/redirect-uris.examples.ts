import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the redirect-uris operations (API reference), checked against their schemas. */
export const redirectUrisExamples = {
  createRedirectUri: {
    request: {
      url: 'https://app.umbrella.com/auth/callback',
    },
    response: {
      __type__: 'RedirectUri',
      __environment__: 'sandbox',
      id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      url: 'https://app.umbrella.com/auth/callback',
      default: true,
    },
    error: apiErrorExample('invalid_idempotency_key'),
  },
  listRedirectUris: {
    response: {
      data: [
        {
          __type__: 'RedirectUri',
          __environment__: 'sandbox',
          id: 'd2a1c3b4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
          url: 'https://app.globex.com/auth/callback',
          default: true,
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
      total: 2,
    },
    error: apiErrorExample('unauthorized'),
  },
  getRedirectUri: {
    response: {
      __type__: 'RedirectUri',
      __environment__: 'sandbox',
      id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      url: 'https://app.umbrella.com/auth/callback',
      default: true,
    },
    error: apiErrorExample('resource_not_found'),
  },
  deleteRedirectUri: {
    response: {
      deleted: true,
      resource: {
        __type__: 'RedirectUri',
        __environment__: 'sandbox',
        id: 'd2a1c3b4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        url: 'https://app.globex.com/auth/callback',
        default: false,
      },
    },
    error: {
      status: 422,
      body: {
        errors: {
          default: ['Can not remove a default Redirection'],
        },
      },
    },
  },
  setDefaultRedirectUri: {
    response: {
      __type__: 'RedirectUri',
      __environment__: 'sandbox',
      id: 'd2a1c3b4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      url: 'https://app.globex.com/auth/callback',
      default: true,
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
