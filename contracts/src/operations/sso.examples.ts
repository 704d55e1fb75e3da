import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** The SSO connection most examples answer. */
const globexOkta = {
  __type__: 'SsoConnection',
  __domain__: 'globex',
  __environment__: 'sandbox',
  id: '8c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
  sp_id: 'globex_sandbox',
  type: 'saml',
  active: true,
  organization: 'globex',
  provider_type: 'okta',
  number_users_provisioning_limit: 99,
  users_access_policy: 'provision_new_users',
  onboarding: null,
  metadata: null,
  identity_provider: null,
  saml_config: {
    acs_url: 'https://sesame.example.com/sso/saml/globex_sandbox/acs',
    entity_id: 'https://sesame.example.com/sso/saml/globex_sandbox/metadata',
    cryptr_metadata_url: 'https://sesame.example.com/sso/saml/globex_sandbox/metadata',
    slo_url: 'https://sesame.example.com/sso/saml/globex_sandbox/slo',
    slo_response_url: 'https://sesame.example.com/sso/saml/globex_sandbox/slo/response',
    sso_provider_metadata: null,
  },
  oidc_config: null,
  update_profile_only_at_creation: false,
  allow_idp_initiated: false,
  inserted_at: '2025-03-04T09:12:45.118Z',
  updated_at: '2025-03-04T09:12:45.118Z',
};

/** Examples of the sso operations (API reference), checked against their schemas. */
export const ssoExamples = {
  createSsoConnection: {
    request: {
      provider_type: 'okta',
      users_access_policy: 'provision_new_users',
      number_users_provisioning_limit: 99,
    },
    response: {
      ...globexOkta,
    },
    error: apiErrorExample('resource_not_found'),
  },
  getSsoConnection: {
    response: {
      ...globexOkta,
      metadata:
        '<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1a2b3c4d5e6f7g8h9"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>MIIDFzCCAf+gAwIBAgIUYW7Khg+DV4o8H3G4TkOGZX35R8UwDQYJKoZIhvcNAQELBQAwGzEZMBcGA1UEAwwQb2t0YS1pZHAtZml4dHVyZTAeFw0yNjExMjMwMzU5NDRaFw00NjExMTgwMzU5NDRaMBsxGTAXBgNVBAMMEG9rdGEtaWRwLWZpeHR1cmUwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDWWyImyPJYZp3MmG5r6h9rr1daPjTy5ZI5IeA8bCMKK13QHBDGTklQO3rNiAb9h6NFJ3vGwvCqSoIPQsztwcjtk+nINNjmEy4vU8TwYGfY6mvgE1/YvLhj4EwzSbjDP3iaqh3+N5NqmPv5UYNwnh1MOtRRqne314YEXc2IaC27XDC9AMQxAPSwZAKXLEtxerXK4OALOwgpPVoydEOFpFwJsJQEYQzVGPDeOS2Wp4WnkGev8ArOeORJdY/xswMJOa1h08Lk4M5n+LSFy4W0u3jVm6n1nw8zE1xcqVZE+zRYNmL3rnbNRi29LOS7vug4M/5bWCJTtRefGb8smtsDciRLAgMBAAGjUzBRMB0GA1UdDgQWBBSZ55cUjn/mZ51E1fVGqeZxVMxhzzAfBgNVHSMEGDAWgBSZ55cUjn/mZ51E1fVGqeZxVMxhzzAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQAZDqc9dshvuLDq+ebWnGaOs9dPbUbQD8KYCvaZIV30Z/amboSoNVqr6yAUAfF7idFYAIPkXhcg0eeyV2/6hRjMfbAy8DbGr7n7FHFy3PRFGDGJm2TNYLvPiN7TeO2V1M997J9S/3vS6/XfTucK3vYTxhlNiU4snxACvBd9HgsLenL/lFXQp5IodRh5ycUGN8r8zl1N/ekd6Sa9LJ24nr+Ut4IdKFUiTQXAXwYSqqnzX5uOSSrSWb7ohDPC/DbT0qZCDXuKfV24TsjLRtd9Nxc9VySXQJ+yfrv1TpbjxeUER5VBXbJa+vQ2CzLzk0cSy5bkUlM7NJPObUuMKGjaUX9c</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://globex.okta.com/app/globex_sesame_1/exk1a2b3c4d5e6f7g8h9/sso/saml"/></md:IDPSSODescriptor></md:EntityDescriptor>',
      identity_provider: {
        entity_id: 'http://www.okta.com/exk1a2b3c4d5e6f7g8h9',
        sso_url: 'https://globex.okta.com/app/globex_sesame_1/exk1a2b3c4d5e6f7g8h9/sso/saml',
        slo_url: null,
        certificates: [
          {
            fingerprint_sha256: '6B:1F:...:9C',
            not_before: '2025-03-04T09:00:00.000Z',
            not_after: '2045-02-27T09:00:00.000Z',
          },
        ],
      },
      saml_config: {
        acs_url: 'https://sesame.example.com/sso/saml/globex_sandbox/acs',
        entity_id: 'https://sesame.example.com/sso/saml/globex_sandbox/metadata',
        cryptr_metadata_url: 'https://sesame.example.com/sso/saml/globex_sandbox/metadata',
        slo_url: 'https://sesame.example.com/sso/saml/globex_sandbox/slo',
        slo_response_url: 'https://sesame.example.com/sso/saml/globex_sandbox/slo/response',
        sso_provider_metadata: 'http://www.okta.com/exk1a2b3c4d5e6f7g8h9',
      },
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  updateSsoConnection: {
    request: {
      metadata:
        '<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1a2b3c4d5e6f7g8h9"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>MIIDFzCCAf+gAwIBAgIUYW7Khg+DV4o8H3G4TkOGZX35R8UwDQYJKoZIhvcNAQELBQAwGzEZMBcGA1UEAwwQb2t0YS1pZHAtZml4dHVyZTAeFw0yNjExMjMwMzU5NDRaFw00NjExMTgwMzU5NDRaMBsxGTAXBgNVBAMMEG9rdGEtaWRwLWZpeHR1cmUwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDWWyImyPJYZp3MmG5r6h9rr1daPjTy5ZI5IeA8bCMKK13QHBDGTklQO3rNiAb9h6NFJ3vGwvCqSoIPQsztwcjtk+nINNjmEy4vU8TwYGfY6mvgE1/YvLhj4EwzSbjDP3iaqh3+N5NqmPv5UYNwnh1MOtRRqne314YEXc2IaC27XDC9AMQxAPSwZAKXLEtxerXK4OALOwgpPVoydEOFpFwJsJQEYQzVGPDeOS2Wp4WnkGev8ArOeORJdY/xswMJOa1h08Lk4M5n+LSFy4W0u3jVm6n1nw8zE1xcqVZE+zRYNmL3rnbNRi29LOS7vug4M/5bWCJTtRefGb8smtsDciRLAgMBAAGjUzBRMB0GA1UdDgQWBBSZ55cUjn/mZ51E1fVGqeZxVMxhzzAfBgNVHSMEGDAWgBSZ55cUjn/mZ51E1fVGqeZxVMxhzzAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQAZDqc9dshvuLDq+ebWnGaOs9dPbUbQD8KYCvaZIV30Z/amboSoNVqr6yAUAfF7idFYAIPkXhcg0eeyV2/6hRjMfbAy8DbGr7n7FHFy3PRFGDGJm2TNYLvPiN7TeO2V1M997J9S/3vS6/XfTucK3vYTxhlNiU4snxACvBd9HgsLenL/lFXQp5IodRh5ycUGN8r8zl1N/ekd6Sa9LJ24nr+Ut4IdKFUiTQXAXwYSqqnzX5uOSSrSWb7ohDPC/DbT0qZCDXuKfV24TsjLRtd9Nxc9VySXQJ+yfrv1TpbjxeUER5VBXbJa+vQ2CzLzk0cSy5bkUlM7NJPObUuMKGjaUX9c</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://globex.okta.com/app/globex_sesame_1/exk1a2b3c4d5e6f7g8h9/sso/saml"/></md:IDPSSODescriptor></md:EntityDescriptor>',
    },
    response: {
      ...globexOkta,
      metadata:
        '<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1a2b3c4d5e6f7g8h9"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>MIIDFzCCAf+gAwIBAgIUYW7Khg+DV4o8H3G4TkOGZX35R8UwDQYJKoZIhvcNAQELBQAwGzEZMBcGA1UEAwwQb2t0YS1pZHAtZml4dHVyZTAeFw0yNjExMjMwMzU5NDRaFw00NjExMTgwMzU5NDRaMBsxGTAXBgNVBAMMEG9rdGEtaWRwLWZpeHR1cmUwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDWWyImyPJYZp3MmG5r6h9rr1daPjTy5ZI5IeA8bCMKK13QHBDGTklQO3rNiAb9h6NFJ3vGwvCqSoIPQsztwcjtk+nINNjmEy4vU8TwYGfY6mvgE1/YvLhj4EwzSbjDP3iaqh3+N5NqmPv5UYNwnh1MOtRRqne314YEXc2IaC27XDC9AMQxAPSwZAKXLEtxerXK4OALOwgpPVoydEOFpFwJsJQEYQzVGPDeOS2Wp4WnkGev8ArOeORJdY/xswMJOa1h08Lk4M5n+LSFy4W0u3jVm6n1nw8zE1xcqVZE+zRYNmL3rnbNRi29LOS7vug4M/5bWCJTtRefGb8smtsDciRLAgMBAAGjUzBRMB0GA1UdDgQWBBSZ55cUjn/mZ51E1fVGqeZxVMxhzzAfBgNVHSMEGDAWgBSZ55cUjn/mZ51E1fVGqeZxVMxhzzAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQAZDqc9dshvuLDq+ebWnGaOs9dPbUbQD8KYCvaZIV30Z/amboSoNVqr6yAUAfF7idFYAIPkXhcg0eeyV2/6hRjMfbAy8DbGr7n7FHFy3PRFGDGJm2TNYLvPiN7TeO2V1M997J9S/3vS6/XfTucK3vYTxhlNiU4snxACvBd9HgsLenL/lFXQp5IodRh5ycUGN8r8zl1N/ekd6Sa9LJ24nr+Ut4IdKFUiTQXAXwYSqqnzX5uOSSrSWb7ohDPC/DbT0qZCDXuKfV24TsjLRtd9Nxc9VySXQJ+yfrv1TpbjxeUER5VBXbJa+vQ2CzLzk0cSy5bkUlM7NJPObUuMKGjaUX9c</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://globex.okta.com/app/globex_sesame_1/exk1a2b3c4d5e6f7g8h9/sso/saml"/></md:IDPSSODescriptor></md:EntityDescriptor>',
      identity_provider: {
        entity_id: 'http://www.okta.com/exk1a2b3c4d5e6f7g8h9',
        sso_url: 'https://globex.okta.com/app/globex_sesame_1/exk1a2b3c4d5e6f7g8h9/sso/saml',
        slo_url: null,
        certificates: [
          {
            fingerprint_sha256: '6B:1F:...:9C',
            not_before: '2025-03-04T09:00:00.000Z',
            not_after: '2045-02-27T09:00:00.000Z',
          },
        ],
      },
      saml_config: {
        acs_url: 'https://sesame.example.com/sso/saml/globex_sandbox/acs',
        entity_id: 'https://sesame.example.com/sso/saml/globex_sandbox/metadata',
        cryptr_metadata_url: 'https://sesame.example.com/sso/saml/globex_sandbox/metadata',
        slo_url: 'https://sesame.example.com/sso/saml/globex_sandbox/slo',
        slo_response_url: 'https://sesame.example.com/sso/saml/globex_sandbox/slo/response',
        sso_provider_metadata: 'http://www.okta.com/exk1a2b3c4d5e6f7g8h9',
      },
      updated_at: '2025-03-04T09:20:03.540Z',
    },
    error: {
      status: 422,
      body: {
        errors: {
          users_access_policy: ['is invalid'],
        },
      },
    },
  },
  listSsoConnections: {
    response: {
      data: [
        {
          ...globexOkta,
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
  getSsoSpMetadata: {
    response:
      '<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sesame.example.com/sso/saml/globex_sandbox/metadata"><md:SPSSODescriptor AuthnRequestsSigned="true" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://sesame.example.com/sso/saml/globex_sandbox/slo"/><md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat><md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://sesame.example.com/sso/saml/globex_sandbox/acs" index="0" isDefault="true"/></md:SPSSODescriptor></md:EntityDescriptor>',
    error: apiErrorExample('resource_not_found'),
  },
  createSsoSamlChallenge: {
    request: {
      redirect_uri: 'https://app.globex.com/auth/callback',
      org_domain: 'globex',
    },
    response: {
      request_id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      authorization_url:
        'https://sesame.example.com/sso/saml/globex_sandbox/authorize?request_id=6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      redirect_uri: 'https://app.globex.com/auth/callback',
      expired_at: '2025-03-04T09:27:45.118Z',
      sso_connection_id: '8c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
    },
    error: {
      status: 422,
      body: {
        errors: {
          redirect_uri: ["can't be blank"],
        },
      },
    },
  },
  ssoSamlAuthorize: {
    response: '',
    error: {
      status: 422,
      body: {
        errors: {
          request_id: ['is not a valid uuid'],
        },
      },
    },
  },
  ssoSamlAcs: {
    request: {
      SAMLResponse:
        'PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiIElEPSJfYTFiMmMzIiBWZXJzaW9uPSIyLjAiPi4uLjwvc2FtbHA6UmVzcG9uc2U+',
      RelayState: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
    },
    response: '',
    error: apiErrorExample('rate_limited'),
  },
  ssoOidcCallback: {
    response: '',
    error: apiErrorExample('rate_limited'),
  },
  createSsoSamlLogout: {
    request: {
      org_domain: 'globex',
      user_email: 'hank.scorpio@globex.com',
      redirect_uri: 'https://app.globex.com/auth/callback',
    },
    response: {
      request_id: '9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
      logout_url: 'https://sesame.example.com/sso/saml/globex_sandbox/logout?request_id=9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
      redirect_uri: 'https://app.globex.com/auth/callback',
    },
    error: apiErrorExample('resource_not_found'),
  },
  ssoSamlLogoutRedirect: {
    response: '',
    error: {
      status: 422,
      body: {
        errors: {
          request_id: ['is not a valid uuid'],
        },
      },
    },
  },
  ssoSamlSloRedirectBinding: {
    response: '',
    error: {
      status: 422,
      body: {
        errors: {
          SAMLRequest: ['give exactly one of SAMLRequest or SAMLResponse'],
        },
      },
    },
  },
  ssoSamlSloPostBinding: {
    request: {
      SAMLResponse:
        'PHNhbWxwOkxvZ291dFJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiIElEPSJfZDRlNWY2Ij4uLi48L3NhbWxwOkxvZ291dFJlc3BvbnNlPg==',
      RelayState: '9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
    },
    response: '',
    error: {
      status: 422,
      body: {
        errors: {
          SAMLRequest: ['give exactly one of SAMLRequest or SAMLResponse'],
        },
      },
    },
  },
} satisfies Record<string, OperationExamples>;
