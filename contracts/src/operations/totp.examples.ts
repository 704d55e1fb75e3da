import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the totp operations (API reference), checked against their schemas. */
export const totpExamples = {
  getTotpConnection: {
    response: {
      active: false,
      method: 'totp_mobile_app',
      expiry_in_seconds: 30,
    },
    error: apiErrorExample('resource_not_found'),
  },
  updateTotpConnection: {
    request: {
      active: true,
      method: 'totp_mobile_app',
      expiry_in_seconds: 30,
    },
    response: {
      active: true,
      method: 'totp_mobile_app',
      expiry_in_seconds: 30,
    },
    error: {
      status: 422,
      body: {
        errors: {
          expiry_in_seconds: ['must be between 30 and 900'],
        },
      },
    },
  },
  createTotpEnrollment: {
    request: {
      force_enroll: false,
    },
    response: {
      email: 'gavin.belson@hooli.com',
      enrolled_totp_at: '2025-03-04T09:12:45.118Z',
      enrolled_at: '2025-03-04T09:12:45.118Z',
      enrollment_totp_nb: 1,
      enrollment_nb: 1,
      first_verification_code: null,
      last_recovery_acknowledgement_at: null,
      last_recovery_code_at: null,
      recovery_codes: null,
      uri: 'otpauth://totp/Hooli:gavin.belson%40hooli.com?secret=JBSWY3DPEHPK3PXP&issuer=Hooli&algorithm=SHA1&digits=6&period=30',
      validated_enrollment_at: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
  validateTotpEnrollment: {
    response: {
      email: 'gavin.belson@hooli.com',
      enrolled_totp_at: '2025-03-04T09:12:45.118Z',
      enrolled_at: '2025-03-04T09:12:45.118Z',
      enrollment_totp_nb: 1,
      enrollment_nb: 1,
      first_verification_code: '2025-03-04T09:13:20.406Z',
      last_recovery_acknowledgement_at: null,
      last_recovery_code_at: null,
      recovery_codes: '7hk2-9qpd\nx4mw-3ncz\nb8rt-6yjf\np2ve-5sla\nc9dg-1kuo\nm3fq-8wzi',
      uri: 'otpauth://totp/Hooli:gavin.belson%40hooli.com?secret=JBSWY3DPEHPK3PXP&issuer=Hooli&algorithm=SHA1&digits=6&period=30',
      validated_enrollment_at: '2025-03-04T09:13:20.406Z',
    },
    error: {
      status: 401,
      body: {
        error: {
          type: 'invalid_code',
          message: 'Invalid Code',
          doc_urls: ['https://docs.sesame.example.com/implement-multi-factor-authentication-mfa'],
        },
      },
    },
  },
  createTotpChallenge: {
    response: {
      request_id: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
      sent_at: null,
      challenged_at: '2025-03-04T09:12:45.118Z',
      code: null,
      success: false,
      recovery_code_used: false,
    },
    error: {
      status: 403,
      body: {
        error: {
          type: 'inactive_totp',
          message: 'Your TOTP strategy is inactive',
          doc_urls: ['https://docs.sesame.example.com/implement-multi-factor-authentication-mfa'],
        },
      },
    },
  },
  validateTotpChallenge: {
    request: {
      code: '492039',
    },
    response: {
      request_id: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
      sent_at: null,
      challenged_at: '2025-03-04T09:12:45.118Z',
      code: 'tc_5e6f7a8b9c0d',
      success: true,
      recovery_code_used: false,
    },
    error: {
      status: 401,
      body: {
        error: {
          type: 'invalid_code',
          message: 'Invalid Code',
          doc_urls: ['https://docs.sesame.example.com/implement-multi-factor-authentication-mfa'],
        },
      },
    },
  },
} satisfies Record<string, OperationExamples>;
