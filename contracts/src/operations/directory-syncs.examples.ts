import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the directory-syncs operations (API reference), checked against their schemas. */
export const directorySyncsExamples = {
  getDirectorySync: {
    response: {
      __type__: 'DirectorySync',
      __domain__: 'stark-industries',
      __environment__: 'sandbox',
      id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      active: true,
      provider_type: 'azure_ad',
      auth_secret_token: {
        hint: 'Z3cW6b',
        provider_key: 'azure_ad',
        value: null,
      },
      scim_base_url: 'https://sesame.example.com/scim/v2/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      inserted_at: '2025-03-04T09:12:45.118Z',
      updated_at: '2025-03-04T09:12:45.118Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  createDirectorySync: {
    request: {
      provider_type: 'azure_ad',
      active: true,
    },
    response: {
      __type__: 'DirectorySync',
      __domain__: 'stark-industries',
      __environment__: 'sandbox',
      id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      active: true,
      provider_type: 'azure_ad',
      auth_secret_token: {
        hint: 'Z3cW6b',
        provider_key: 'azure_ad',
        value: 'scim_live_4Jq9X2mNvR7tY1pL8kZ3cW6b',
      },
      scim_base_url: 'https://sesame.example.com/scim/v2/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      inserted_at: '2025-03-04T09:12:45.118Z',
      updated_at: '2025-03-04T09:12:45.118Z',
    },
    error: {
      status: 409,
      body: {
        error: {
          type: 'directory_sync_already_exists',
          message: 'A directory sync already exists',
          doc_urls: ['https://docs.sesame.example.com/directory-sync'],
        },
      },
    },
  },
  updateDirectorySync: {
    request: {
      active: false,
    },
    response: {
      __type__: 'DirectorySync',
      __domain__: 'stark-industries',
      __environment__: 'sandbox',
      id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      active: false,
      provider_type: 'azure_ad',
      auth_secret_token: {
        hint: 'Z3cW6b',
        provider_key: 'azure_ad',
        value: null,
      },
      scim_base_url: 'https://sesame.example.com/scim/v2/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      inserted_at: '2025-03-04T09:12:45.118Z',
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  getAttributesMapping: {
    response: {
      __type__: 'AttributesMapping',
      __environment__: 'sandbox',
      attributes: [
        {
          name: 'emails.value',
          mapped_name: 'email',
          required: false,
        },
        {
          name: 'phoneNumbers.value',
          mapped_name: 'phone_number',
          required: false,
        },
        {
          name: 'name.givenName',
          mapped_name: 'profile.given_name',
          required: false,
        },
        {
          name: 'name.familyName',
          mapped_name: 'profile.family_name',
          required: false,
        },
      ],
    },
    error: apiErrorExample('unauthorized'),
  },
  putAttributesMapping: {
    request: {
      attributes: [
        {
          name: 'emails.value',
          mapped_name: 'email',
          required: true,
        },
        {
          name: 'name.givenName',
          mapped_name: 'profile.given_name',
          required: true,
        },
        {
          name: 'name.familyName',
          mapped_name: 'profile.family_name',
          required: true,
        },
        {
          name: 'phoneNumbers.value',
          mapped_name: 'phone_number',
          required: false,
        },
        {
          name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber',
          mapped_name: 'metadata.employee_number',
          required: false,
        },
      ],
    },
    response: {
      __type__: 'AttributesMapping',
      __environment__: 'sandbox',
      attributes: [
        {
          name: 'emails.value',
          mapped_name: 'email',
          required: true,
        },
        {
          name: 'name.givenName',
          mapped_name: 'profile.given_name',
          required: true,
        },
        {
          name: 'name.familyName',
          mapped_name: 'profile.family_name',
          required: true,
        },
        {
          name: 'phoneNumbers.value',
          mapped_name: 'phone_number',
          required: false,
        },
        {
          name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber',
          mapped_name: 'metadata.employee_number',
          required: false,
        },
      ],
    },
    error: apiErrorExample('unauthorized'),
  },
} satisfies Record<string, OperationExamples>;
