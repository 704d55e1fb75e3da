import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the oauth operations (API reference), checked against their schemas. */
export const oauthExamples = {
  issueToken: {
    request: {
      grant_type: 'client_credentials',
      client_id: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
      client_secret: 'q9Xv2mKp4tR7wZ1bN6cH8jD3fL5sA0eYgU2iO7kM4rT',
    },
    response: {
      access_token:
        'eyJhbGciOiJSUzI1NiIsImtpZCI6IjJmNGQ3YjFjIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3Nlc2FtZS5leGFtcGxlLmNvbS90L3Nlc2FtZSIsImp0dCI6ImFwaV9rZXkifQ.c2lnbmF0dXJl',
      expires_in: 36000,
      scope: 'organizations:read organizations:write',
      token_type: 'Bearer',
    },
    error: {
      status: 401,
      body: {
        error: 'invalid_client',
        error_description: 'Client authentication failed',
      },
    },
  },
  getJwks: {
    response: {
      keys: [
        {
          kty: 'RSA',
          kid: '2f4d7b1c',
          use: 'sig',
          alg: 'RS256',
          n: 'u1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0_IzW7yWR7QkrmBL7jTKEn5u-qKhbwKfBstIs-bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW_VDL5AaWTg0nLVkjRo9z-40RQzuVaE8AkAFmxZzow3x-VJYKdjykkJ0iT9wCS0DRTXu269V264Vf_3jvredZiKRkgwlL9xNAwxXFg0x_XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC-9aGVd-Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmw',
          e: 'AQAB',
        },
      ],
    },
    error: apiErrorExample('uri_too_long'),
  },
} satisfies Record<string, OperationExamples>;
