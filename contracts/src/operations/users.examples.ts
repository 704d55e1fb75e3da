import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** The user most examples answer (created, then read, updated, given metadata and deleted). */
const ada = {
  __type__: 'User',
  __domain__: 'acme-corporation',
  __environment__: 'sandbox',
  id: '5e0b9c2d-1f3a-4b6c-8d7e-9f0a1b2c3d4e',
  active: true,
  email: 'ada.lovelace@acme.com',
  email_verified: false,
  phone_number: '+33612345678',
  phone_number_verified: false,
  phone_numbers: [
    {
      phone_country_code: '33',
      phone_national_number: '612345678',
      primary: true,
      value: '+33612345678',
    },
  ],
  address: {
    country: 'FR',
    formatted: null,
    locality: 'Lyon',
    postal_code: '69002',
    region: null,
    street_address: null,
  },
  profile: {
    birthdate: null,
    family_name: 'Lovelace',
    given_name: 'Ada',
    gender: 'female',
    locale: 'en',
    nickname: null,
    picture: null,
    preferred_username: null,
    website: null,
    zoneinfo: 'Europe/Paris',
  },
  identities: [],
  metadata: {},
  meta_data: {},
  inserted_at: '2025-03-04T09:12:45.118Z',
  updated_at: '2025-03-04T09:12:45.118Z',
};

/** Examples of the users operations (API reference), checked against their schemas. */
export const usersExamples = {
  createUser: {
    request: {
      email: 'gavin.belson@hooli.com',
      phone_number: '+33612345678',
    },
    response: {
      __type__: 'User',
      __domain__: 'hooli',
      __environment__: 'sandbox',
      id: '5e0b9c2d-1f3a-4b6c-8d7e-9f0a1b2c3d4e',
      active: true,
      email: 'gavin.belson@hooli.com',
      email_verified: false,
      phone_number: '+33612345678',
      phone_number_verified: false,
      phone_numbers: [
        {
          phone_country_code: '33',
          phone_national_number: '612345678',
          primary: true,
          value: '+33612345678',
        },
      ],
      address: {
        country: null,
        formatted: null,
        locality: null,
        postal_code: null,
        region: null,
        street_address: null,
      },
      profile: {
        birthdate: null,
        family_name: null,
        given_name: null,
        gender: null,
        locale: null,
        nickname: null,
        picture: null,
        preferred_username: null,
        website: null,
        zoneinfo: null,
      },
      identities: [],
      metadata: {},
      meta_data: {},
      inserted_at: '2025-03-04T09:12:45.118Z',
      updated_at: '2025-03-04T09:12:45.118Z',
    },
    error: {
      status: 422,
      body: {
        errors: {
          phone_number: ['not a phone number'],
        },
      },
    },
  },
  listUsers: {
    response: {
      data: [ada],
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
    error: apiErrorExample('resource_not_found'),
  },
  getUserLimit: {
    response: {
      environment: 'production',
      users: { limit: 500, used: 420, remaining: 80 },
      organization: { domain: 'acme.com', limit: 50, used: 50, remaining: 0 },
    },
    error: apiErrorExample('resource_not_found'),
  },
  getUser: {
    response: ada,
    error: apiErrorExample('resource_not_found'),
  },
  updateUser: {
    request: {
      email: 'ada.lovelace@acme.com',
      profile: {
        nickname: 'Ada',
      },
    },
    response: {
      ...ada,
      profile: { ...ada.profile, nickname: 'Ada' },
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  deleteUser: {
    response: {
      deleted: true,
      resource: {
        ...ada,
        updated_at: '2025-03-04T09:20:03.540Z',
      },
    },
    error: apiErrorExample('resource_not_found'),
  },
  eraseUser: {
    response: {
      user_id: ada.id,
      pseudonym: 'erased-4c1e8a2f-6b7d-4e9a-b3c5-d2f1a0e9b8c7',
      erased_at: '2025-03-04T09:21:00.000Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  addUserMetadata: {
    request: {
      key: 'crm_id',
      value: 'CRM-20931',
    },
    response: {
      ...ada,
      metadata: { crm_id: 'CRM-20931' },
      meta_data: { crm_id: 'CRM-20931' },
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  removeUserMetadata: {
    request: {
      key: 'crm_id',
    },
    response: {
      ...ada,
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
