import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the password operations (API reference), checked against their schemas. */
export const passwordExamples = {
  getPasswordConnection: {
    response: {
      id: '5d2f7a91-3c4e-8b6d-9f10-2a3b4c5d6e7f',
      active: true,
      pepper_rotation_period: 86400,
      plain_text_min_length: 8,
      plain_text_max_length: 40,
    },
    error: apiErrorExample('resource_not_found'),
  },
  createPasswordConnection: {
    request: {
      plain_text_min_length: 8,
      plain_text_max_length: 40,
    },
    response: {
      id: '5d2f7a91-3c4e-8b6d-9f10-2a3b4c5d6e7f',
      active: true,
      pepper_rotation_period: 86400,
      plain_text_min_length: 8,
      plain_text_max_length: 40,
    },
    error: apiErrorExample('resource_not_found'),
  },
  updatePasswordConnection: {
    request: {
      plain_text_min_length: 12,
    },
    response: {
      id: '5d2f7a91-3c4e-8b6d-9f10-2a3b4c5d6e7f',
      active: true,
      pepper_rotation_period: 86400,
      plain_text_min_length: 12,
      plain_text_max_length: 40,
    },
    error: {
      status: 422,
      body: {
        errors: {
          plain_text_min_length: ['must be lower than plain_text_max_length'],
        },
      },
    },
  },
  createPassword: {
    request: {
      org_domain: 'initech',
      user_email: 'peter.gibbons@initech.com',
      plain_text: 'correct horse battery staple 42',
    },
    response: {
      id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      user_id: '5e0b9c2d-1f3a-4b6c-8d7e-9f0a1b2c3d4e',
      code: null,
    },
    error: {
      status: 422,
      body: {
        errors: {
          plain_text: ['is among the most common passwords'],
        },
      },
    },
  },
  createPasswordChallenge: {
    request: {
      org_domain: 'initech',
      user_email: 'peter.gibbons@initech.com',
      plain_text: 'correct horse battery staple 42',
    },
    response: {
      code: 'pwd_9f8e7d6c5b4a',
      error: null,
      expired_at: '2025-03-04T09:17:45.118Z',
      password_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      renew_password: false,
      request_id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
      user_id: '5e0b9c2d-1f3a-4b6c-8d7e-9f0a1b2c3d4e',
      'valid?': true,
    },
    error: apiErrorExample('resource_not_found'),
  },
  createPasswordRequest: {
    request: {
      org_domain: 'initech',
      user_email: 'peter.gibbons@initech.com',
      redirect_uri: 'https://app.initech.com/reset-password',
      find_or_create_user: false,
    },
    response: {
      request_id: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
      user_id: '5e0b9c2d-1f3a-4b6c-8d7e-9f0a1b2c3d4e',
      expired_at: '2025-03-04T10:12:45.118Z',
      magic_link:
        'https://app.initech.com/reset-password?password_code=Jx2kQ9v7Lw4Rt8Yp3Nc6Hb1Zs5Dg0Fm2Ua7Ke4Wq9Xo&request_id=9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
      redirect_uri: 'https://app.initech.com/reset-password',
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
