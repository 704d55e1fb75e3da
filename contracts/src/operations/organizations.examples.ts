import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** The organization most examples answer. */
const wayneEnterprises = {
  __type__: 'Organization',
  __domain__: 'wayne-enterprises',
  __environment__: 'sandbox',
  id: '3f1c2a9e-7b4d-4e8a-9c1f-5d6e7f8a9b0c',
  name: 'Wayne Enterprises',
  domain: 'wayne-enterprises',
  tenant_id: 'crm-4821',
  allowed_email_domains: ['wayne.com'],
  allowed_authn_connections: ['sso', 'password', 'magic_link', 'totp'],
  color: null,
  icon_logo_url: null,
  inline_logo_url: null,
  locale: null,
  timezone: null,
  environments: [
    {
      name: 'sandbox',
      status: 'up',
    },
  ],
  status: {
    state: 'terminated',
    errors: [],
    progress_in_percentage: 100,
    estimated_time_to_complete_in_seconds: 0,
  },
  inserted_at: '2025-03-04T09:12:45.118Z',
  updated_at: '2025-03-04T09:12:45.118Z',
};

/** Examples of the organizations operations (API reference), checked against their schemas. */
export const organizationsExamples = {
  createOrganization: {
    request: {
      name: 'Wayne Enterprises',
      allowed_email_domains: ['wayne.com'],
      tenant_id: 'crm-4821',
    },
    response: {
      ...wayneEnterprises,
    },
    error: {
      status: 422,
      body: {
        errors: {
          tenant_id: ['has already been taken'],
        },
      },
    },
  },
  listOrganizations: {
    response: {
      data: [
        {
          ...wayneEnterprises,
          __domain__: 'acme-corporation',
          name: 'Acme Corporation',
          domain: 'acme-corporation',
          tenant_id: null,
          allowed_email_domains: ['acme.com'],
        },
      ],
      pagination: {
        current_page: 1,
        current_pages: 1,
        next_page: 2,
        prev_page: null,
        per_page: 2,
        total_pages: 3,
      },
      total: 5,
    },
    error: {
      status: 401,
      body: {
        error: {
          type: 'unauthorized',
          message: 'Missing an api key with the requested privilegies',
          doc_urls: ['https://docs.sesame.example.com/how-to-use-api-key'],
        },
      },
    },
  },
  getOrganization: {
    response: {
      ...wayneEnterprises,
      __domain__: 'acme-corporation',
      name: 'Acme Corporation',
      domain: 'acme-corporation',
      tenant_id: null,
      allowed_email_domains: ['acme.com'],
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
  updateOrganization: {
    request: {
      color: '#0f766e',
      locale: 'fr-FR',
      timezone: 'Europe/Paris',
    },
    response: {
      ...wayneEnterprises,
      __domain__: 'acme-corporation',
      name: 'Acme Corporation',
      domain: 'acme-corporation',
      tenant_id: null,
      allowed_email_domains: ['acme.com'],
      color: '#0f766e',
      locale: 'fr-FR',
      timezone: 'Europe/Paris',
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: {
      status: 422,
      body: {
        errors: {
          domain: ["can't be changed"],
        },
      },
    },
  },
  deleteOrganization: {
    response: {
      deleted: true,
      resource: {
        ...wayneEnterprises,
      },
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
