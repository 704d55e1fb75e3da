import { maxResults } from './list';
import type { ScimObject } from './filter';

/** What this server supports (RFC 7643 section 5); `filter.maxResults` is the largest page. */
export function serviceProviderConfig(location: string, documentationUri: string): ScimObject {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'The auth_secret_token value of the directory sync, as a Bearer token',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        documentationUri,
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location },
  };
}
