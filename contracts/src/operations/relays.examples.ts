import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the relays operations (API reference), checked against their schemas. */
export const relaysExamples = {
  createRelay: {
    request: {
      partner_domain: 'partner-analytics',
      source_organizations: ['acme-corporation'],
      partner_redirect_uri: 'https://partner.example.net/sesame/callback',
      jit: true,
    },
    response: {
      id: 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f',
      jit: true,
      organization: 'sesame',
      partner_domain: 'partner-analytics',
      source_organizations: ['acme-corporation'],
      partner_redirect_uri: 'https://partner.example.net/sesame/callback',
      session_duration_minutes: 60,
    },
    error: apiErrorExample('resource_not_found'),
  },
  listRelays: {
    response: {
      data: [
        {
          id: 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f',
          jit: true,
          organization: 'sesame',
          partner_domain: 'partner-analytics',
          source_organizations: ['acme-corporation'],
          partner_redirect_uri: 'https://partner.example.net/sesame/callback',
          session_duration_minutes: 60,
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
  getRelay: {
    response: {
      id: 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f',
      jit: true,
      organization: 'sesame',
      partner_domain: 'partner-analytics',
      source_organizations: ['acme-corporation'],
      partner_redirect_uri: 'https://partner.example.net/sesame/callback',
      session_duration_minutes: 60,
    },
    error: apiErrorExample('resource_not_found'),
  },
  updateRelay: {
    request: {
      jit: false,
      session_duration_minutes: 30,
    },
    response: {
      id: 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f',
      jit: false,
      organization: 'sesame',
      partner_domain: 'partner-analytics',
      source_organizations: ['acme-corporation'],
      partner_redirect_uri: 'https://partner.example.net/sesame/callback',
      session_duration_minutes: 30,
    },
    error: apiErrorExample('resource_not_found'),
  },
  deleteRelay: {
    response: {
      deleted: true,
      resource: {
        id: 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f',
        jit: true,
        organization: 'sesame',
        partner_domain: 'partner-analytics',
        source_organizations: ['acme-corporation'],
        partner_redirect_uri: 'https://partner.example.net/sesame/callback',
        session_duration_minutes: 60,
      },
    },
    error: apiErrorExample('resource_not_found'),
  },
  requestRelay: {
    request: {
      access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjNmMWMyYTllIn0.eyJzdWIiOiI1ZTBiOWMyZCJ9.c2lnbmF0dXJl',
    },
    response: {
      from_user: '5e0b9c2d-1f3a-4b6c-8d7e-9f0a1b2c3d4e',
      partner_redirect_uri: 'https://partner.example.net/sesame/callback',
      relay_id: 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f',
      relay_uri: 'https://partner.example.net/sesame/callback?code=rl_8d9e0f1a2b3c',
      to_partner_user: '0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d',
    },
    error: {
      status: 422,
      body: {
        error: {
          type: 'missing_access_token',
          message: 'You should provide the current `access_token` of the user you want to redirect.',
          doc_urls: ['https://docs.sesame.example.com/api'],
        },
      },
    },
  },
} satisfies Record<string, OperationExamples>;
