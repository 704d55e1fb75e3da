import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the magic-link operations (API reference), checked against their schemas. */
export const magicLinkExamples = {
  getMagicLinkConnection: {
    response: {
      id: '0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a',
      active: true,
      find_or_create_user: true,
      sign_in_template_id: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
  createMagicLinkConnection: {
    request: {
      active: true,
      find_or_create_user: true,
    },
    response: {
      id: '0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a',
      active: true,
      find_or_create_user: true,
      sign_in_template_id: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
  updateMagicLinkConnection: {
    request: {
      sign_in_template_id: 'welcome-v2',
    },
    response: {
      id: '0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a',
      active: true,
      find_or_create_user: true,
      sign_in_template_id: 'welcome-v2',
    },
    error: apiErrorExample('resource_not_found'),
  },
  createMagicLinkChallenge: {
    request: {
      org_domain: 'umbrella',
      email: 'alice.abernathy@umbrella.com',
      redirect_uri: 'https://app.umbrella.com/auth/callback',
      find_or_create_user: true,
    },
    response: {
      code: 'ml_3c4d5e6f7a8b',
      email_address: 'alice.abernathy@umbrella.com',
      find_or_create_user: true,
      magic_link: 'https://app.umbrella.com/auth/callback?code=ml_3c4d5e6f7a8b',
      request_id: '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c',
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
