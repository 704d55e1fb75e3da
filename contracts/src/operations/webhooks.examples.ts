import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** The webhook most examples answer. */
const crmWebhook = {
  __type__: 'Webhook',
  __domain__: null,
  __environment__: 'sandbox',
  id: 'webhook_2b7f1c9e4a6d',
  name: 'CRM provisioning',
  active: true,
  event_codes: [
    'directory_sync.user.provisioning.success',
    'directory_sync.user.update.success',
    'directory_sync.user.deletion.success',
  ],
  target_url: 'https://hooks.acme.com/sesame',
  organization_domain: null,
  signature_key: 'whsec_Jm4dQ8vT2zX6pR1nK9bW5yH3',
  inserted_at: '2025-03-04T09:12:45.118Z',
  updated_at: '2025-03-04T09:12:45.118Z',
};

/** Examples of the webhooks operations (API reference), checked against their schemas. */
export const webhooksExamples = {
  createWebhook: {
    request: {
      name: 'CRM provisioning',
      event_codes: [
        'directory_sync.user.provisioning.success',
        'directory_sync.user.update.success',
        'directory_sync.user.deletion.success',
      ],
      target_url: 'https://hooks.acme.com/sesame',
      active: true,
      organization_domain: 'acme-corp',
    },
    response: {
      ...crmWebhook,
      __domain__: 'acme-corp',
      organization_domain: 'acme-corp',
    },
    error: {
      status: 422,
      body: {
        errors: {
          name: ["can't be blank"],
          event_codes: ["can't be blank"],
          target_url: ["can't be blank"],
        },
      },
    },
  },
  listWebhooks: {
    response: {
      data: [
        {
          ...crmWebhook,
          signature_key: null,
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
  getWebhook: {
    response: {
      ...crmWebhook,
      signature_key: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
  updateWebhook: {
    request: {
      active: false,
    },
    response: {
      ...crmWebhook,
      active: false,
      signature_key: null,
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  deleteWebhook: {
    response: {
      deleted: true,
      resource: {
        ...crmWebhook,
        active: false,
        signature_key: null,
        updated_at: '2025-03-04T09:20:03.540Z',
      },
    },
    error: apiErrorExample('resource_not_found'),
  },
  rotateWebhookSignatureKey: {
    response: {
      ...crmWebhook,
      signature_key: 'whsec_Xp7LwR3eN8uC5aT1qZ6mV2kD',
      updated_at: '2025-03-05T14:02:11.407Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
