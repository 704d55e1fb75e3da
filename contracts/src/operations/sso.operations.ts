import { z } from '../zod';
import { listSchema, pageQuerySchema } from '../common/pagination.schema';
import { booleanInputSchema, integerInputSchema } from '../common/primitives.schema';
import { optionalNullable, orgDomainParamsSchema } from '../common/inputs.schema';
import { freeFormObjectSchema, userFacingFreeFormBounds } from '../common/free-form.schema';
import {
  ssoChallengeSchema,
  ssoConnectionSchema,
  ssoConnectionTypeSchema,
  ssoProviderTypeSchema,
  usersAccessPolicySchema,
} from '../entities/sso.schema';
import { emailInputSchema } from './users.operations';
import { pkceFields, pkcePair } from '../common/pkce.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { perIp } from './rate-limits';
import { ssoExamples } from './sso.examples';

/** Largest IdP metadata document accepted (real ones are a few kilobytes; federations are not supported). */
export const maxIdpMetadataLength = 200_000;

export const ssoConnectionSettingsSchema = z.object({
  active: booleanInputSchema.optional(),
  provider_type: ssoProviderTypeSchema.optional(),
  users_access_policy: usersAccessPolicySchema.optional(),
  number_users_provisioning_limit: optionalNullable(integerInputSchema.pipe(z.number().min(0).max(10_000_000))),
  metadata: optionalNullable(z.string().max(maxIdpMetadataLength)).meta({
    description: 'The identity provider’s SAML metadata XML (signing certificates, entity id, SSO URL are read from it)',
  }),
  update_profile_only_at_creation: booleanInputSchema.optional(),
  allow_idp_initiated: booleanInputSchema.optional(),
  onboarding: optionalNullable(freeFormObjectSchema(userFacingFreeFormBounds)),
});
export type SsoConnectionSettings = z.infer<typeof ssoConnectionSettingsSchema>;

/** An OAuth scope token (RFC 6749 section 3.3). */
const scopeTokenSchema = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/, 'must be a scope token (no spaces or quotes)');

/** The fields of an OIDC connection (Sesame is the relying party); the API's create and update only. */
export const oidcConnectionFieldsSchema = z.object({
  type: ssoConnectionTypeSchema.optional().meta({ description: '`saml` (the default) or `oidc`' }),
  oidc_issuer: optionalNullable(
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(500)
      .refine((url) => !url.includes('?') && !url.includes('#'), 'must not have a query or fragment'),
  ).meta({ description: 'The identity provider’s issuer: `<issuer>/.well-known/openid-configuration` is read at sign-in' }),
  oidc_client_id: optionalNullable(z.string().trim().min(1).max(255)),
  oidc_client_secret: optionalNullable(z.string().min(1).max(1_000)).meta({
    description: 'Encrypted at rest and never answered (`oidc_config.client_secret_set` says whether one is recorded)',
  }),
  oidc_scopes: z
    .array(scopeTokenSchema)
    .max(20)
    .optional()
    .meta({ description: 'Scopes to ask for besides `openid` (default `openid email profile`)' }),
});

export const ssoConnectionBodySchema = ssoConnectionSettingsSchema
  .extend(oidcConnectionFieldsSchema.shape)
  .meta({ id: 'SsoConnectionRequest' });
export type SsoConnectionBody = z.infer<typeof ssoConnectionBodySchema>;
export const ssoConnectionListSchema = listSchema(ssoConnectionSchema, 'SsoConnectionList');
export const spIdParamsSchema = z.object({
  sp_id: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[a-z0-9_-]+$/),
});

export const createSsoConnection = defineOperation({
  operationId: 'createSsoConnection',
  method: 'post',
  path: '/api/v2/org/{org_domain}/sso-connection',
  tag: 'SSO',
  summary: 'Create the SSO connection of an organization',
  description:
    'One connection per organization and environment (the API key’s), SAML (`type: saml`, the default) or OpenID Connect (`type: oidc`). SAML: `metadata` may be given now or later (PUT); it must be valid XML with at least one signing certificate, none expired. OIDC: `oidc_issuer`, `oidc_client_id` and `oidc_client_secret` may be given now or later; register `oidc_config.redirect_uri` at the identity provider.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.sso.create,
  request: { params: orgDomainParamsSchema, body: ssoConnectionBodySchema },
  response: { status: 201, description: 'The created connection', schema: ssoConnectionSchema },
  errors: ['unauthorized', 'resource_not_found', 'sso_connection_already_exists'],
  examples: ssoExamples.createSsoConnection,
});

export const getSsoConnection = defineOperation({
  operationId: 'getSsoConnection',
  method: 'get',
  path: '/api/v2/org/{org_domain}/sso-connection',
  tag: 'SSO',
  summary: 'Retrieve the SSO connection of an organization',
  auth: 'api_key',
  scope: 'connections:read',
  subject: subjects.authMethods.sso.get,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The connection', schema: ssoConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: ssoExamples.getSsoConnection,
});

export const updateSsoConnection = defineOperation({
  operationId: 'updateSsoConnection',
  method: 'put',
  path: '/api/v2/org/{org_domain}/sso-connection',
  tag: 'SSO',
  summary: 'Update the SSO connection of an organization',
  description: 'Only the given fields change. New metadata replaces the identity provider’s certificates.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.sso.update,
  request: { params: orgDomainParamsSchema, body: ssoConnectionBodySchema },
  response: { status: 200, description: 'The updated connection', schema: ssoConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: ssoExamples.updateSsoConnection,
});

export const listSsoConnections = defineOperation({
  operationId: 'listSsoConnections',
  method: 'get',
  path: '/api/v2/sso-connections',
  tag: 'SSO',
  summary: 'List SSO connections',
  auth: 'api_key',
  scope: 'connections:read',
  subject: subjects.authMethods.sso.list,
  request: { query: pageQuerySchema },
  response: {
    status: 200,
    description: 'A page of connections of the environment, oldest first',
    schema: ssoConnectionListSchema,
  },
  errors: ['unauthorized'],
  examples: ssoExamples.listSsoConnections,
});

export const getSpMetadata = defineOperation({
  operationId: 'getSsoSpMetadata',
  method: 'get',
  path: '/sso/saml/{sp_id}/metadata',
  tag: 'SSO',
  summary: 'Our SAML service-provider metadata for a connection',
  description: 'Public: the document an IT admin gives their identity provider (`saml_config.cryptr_metadata_url`).',
  auth: 'none',
  subject: subjects.authMethods.sso.spMetadata,
  request: { params: spIdParamsSchema },
  response: {
    status: 200,
    description: 'SAML 2.0 metadata (XML)',
    schema: z.string(),
    contentType: 'application/samlmetadata+xml',
  },
  errors: ['resource_not_found'],
  examples: ssoExamples.getSsoSpMetadata,
});

export const ssoSamlChallengeBodySchema = z
  .object({
    redirect_uri: z.string().trim().min(1).max(2_000).meta({ description: 'A registered redirect URI of the environment' }),
    user_email: emailInputSchema.optional().meta({ description: 'The organization is found from the email domain' }),
    org_domain: z.string().trim().min(1).max(100).optional(),
    ...pkceFields,
  })
  .superRefine((body, context) => {
    if ((body.user_email === undefined) === (body.org_domain === undefined))
      context.addIssue({ code: 'custom', path: ['user_email'], message: 'give exactly one of user_email or org_domain' });
    pkcePair(body, context);
  })
  .meta({ id: 'SsoSamlChallengeRequest' });

export const createSsoSamlChallenge = defineOperation({
  operationId: 'createSsoSamlChallenge',
  method: 'post',
  path: '/api/v2/sso-saml-challenge',
  // The plural form Cryptr's SDKs call.
  aliases: ['/api/v2/sso-saml-challenges'],
  tag: 'SSO',
  summary: 'Start an SSO sign-in (SAML or OIDC)',
  description:
    'Send the user’s browser to `authorization_url`. SAML: it goes on to the identity provider with a signed AuthnRequest, and the IdP posts back to our ACS. OIDC: `authorization_url` is the identity provider’s authorization endpoint (code flow, PKCE S256, `state`, `nonce`), and the IdP comes back to our callback. Either way the browser lands on `redirect_uri?code=...&request_id=...` (or `error`, `error_description`), and the code is exchanged at `/oauth/token` (`grant_type=authorization_code`). An OIDC issuer that does not answer its discovery document gives a 422 on `org_domain`.',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.sso.challenge,
  request: { body: ssoSamlChallengeBodySchema },
  response: { status: 201, description: 'The challenge', schema: ssoChallengeSchema },
  errors: ['unauthorized', 'resource_not_found', 'authn_connection_not_allowed'],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.createSsoSamlChallenge,
});

export const ssoSamlAuthorize = defineOperation({
  operationId: 'ssoSamlAuthorize',
  method: 'get',
  path: '/sso/saml/{sp_id}/authorize',
  tag: 'SSO',
  summary: 'Browser: go to the identity provider',
  description:
    'Public, for browsers (the `authorization_url` of a challenge): answers 302 to the IdP’s SSO URL with a signed AuthnRequest (HTTP-Redirect binding), or an HTML error page.',
  auth: 'none',
  subject: subjects.authMethods.sso.authorize,
  request: { params: spIdParamsSchema, query: z.object({ request_id: z.uuid() }) },
  response: { status: 302, description: 'Redirect to the identity provider', schema: z.string(), contentType: 'text/html' },
  errors: [],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.ssoSamlAuthorize,
});

export const ssoSamlAcsBodySchema = z
  .object({
    SAMLResponse: z.string().min(1).max(800_000),
    RelayState: z.string().max(1_000).optional(),
  })
  .meta({ id: 'SamlPostBinding' });

export const ssoSamlAcs = defineOperation({
  operationId: 'ssoSamlAcs',
  method: 'post',
  path: '/sso/saml/{sp_id}/acs',
  tag: 'SSO',
  summary: 'Browser: Assertion Consumer Service',
  description:
    'Public, for browsers: the identity provider posts its SAML response here (HTTP-POST binding). A valid one ends with a 302 to the challenge’s `redirect_uri` (or, IdP-initiated, the environment’s default redirect URI) with a one-time `code`; a refused one with `error=access_denied` on that redirect URI when it is known, else an HTML error page. The reason is logged.',
  auth: 'none',
  subject: subjects.authMethods.sso.acs,
  request: { params: spIdParamsSchema, body: ssoSamlAcsBodySchema },
  response: { status: 302, description: 'Redirect to the application', schema: z.string(), contentType: 'text/html' },
  errors: [],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.ssoSamlAcs,
});

export const ssoOidcCallbackQuerySchema = z
  .object({
    code: z.string().min(1).max(2_000).optional(),
    state: z.string().min(1).max(200),
    iss: z.string().max(500).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1_000).optional(),
    session_state: z.string().max(500).optional(),
  })
  .meta({ id: 'OidcAuthorizationResponse' });

export const ssoOidcCallback = defineOperation({
  operationId: 'ssoOidcCallback',
  method: 'get',
  path: '/sso/oidc/{sp_id}/callback',
  tag: 'SSO',
  summary: 'Browser: OpenID Connect callback',
  description:
    'Public, for browsers: the identity provider of an OIDC connection redirects here (`oidc_config.redirect_uri`) with an authorization code and our `state`. The code is exchanged with the PKCE verifier, the ID token checked against the issuer’s keys (signature, `iss`, `aud`, `azp`, `exp`, `nonce`); a valid one ends with a 302 to the challenge’s `redirect_uri` with a one-time `code`, a refused one with `error=access_denied` there, or an HTML error page when the `state` names no sign-in of this connection. The reason is logged.',
  auth: 'none',
  subject: subjects.authMethods.sso.oidcCallback,
  request: { params: spIdParamsSchema, query: ssoOidcCallbackQuerySchema },
  response: { status: 302, description: 'Redirect to the application', schema: z.string(), contentType: 'text/html' },
  errors: [],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.ssoOidcCallback,
});

export const ssoSamlLogoutBodySchema = z
  .object({
    org_domain: z.string().trim().min(1).max(100),
    user_email: emailInputSchema,
    redirect_uri: z
      .string()
      .trim()
      .min(1)
      .max(2_000)
      .meta({ description: 'A registered redirect URI: where the browser lands after the IdP logged the user out' }),
  })
  .meta({ id: 'SsoSamlLogoutRequest' });
export const ssoLogoutSchema = z
  .object({ request_id: z.uuid(), logout_url: z.string(), redirect_uri: z.string() })
  .meta({ id: 'SsoLogout' });

export const createSsoSamlLogout = defineOperation({
  operationId: 'createSsoSamlLogout',
  method: 'post',
  path: '/api/v2/sso-saml-logout',
  tag: 'SSO',
  summary: 'Start a SAML single logout',
  description:
    'For the user’s latest open SAML session: send the browser to `logout_url`; it goes to the identity provider with a signed LogoutRequest and comes back to `redirect_uri?request_id=...&logout=success` (or `error`).',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.sso.logout,
  request: { body: ssoSamlLogoutBodySchema },
  response: { status: 201, description: 'The logout to follow', schema: ssoLogoutSchema },
  errors: ['unauthorized', 'resource_not_found'],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.createSsoSamlLogout,
});

export const ssoSamlLogoutRedirect = defineOperation({
  operationId: 'ssoSamlLogoutRedirect',
  method: 'get',
  path: '/sso/saml/{sp_id}/logout',
  tag: 'SSO',
  summary: 'Browser: go to the identity provider to log out',
  auth: 'none',
  subject: subjects.authMethods.sso.logoutRedirect,
  request: { params: spIdParamsSchema, query: z.object({ request_id: z.uuid() }) },
  response: {
    status: 302,
    description: 'Redirect to the IdP’s single logout service',
    schema: z.string(),
    contentType: 'text/html',
  },
  errors: [],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.ssoSamlLogoutRedirect,
});

const sloMessage = {
  SAMLRequest: z.string().min(1).max(800_000).optional(),
  SAMLResponse: z.string().min(1).max(800_000).optional(),
  RelayState: z.string().max(1_000).optional(),
};
const oneMessage = (value: { SAMLRequest?: string; SAMLResponse?: string }) =>
  (value.SAMLRequest === undefined) !== (value.SAMLResponse === undefined);
const sloQuery = z
  .object({ ...sloMessage, SigAlg: z.string().max(200).optional(), Signature: z.string().max(2_000).optional() })
  .refine(oneMessage, { message: 'give exactly one of SAMLRequest or SAMLResponse', path: ['SAMLRequest'] });
const sloBody = z
  .object(sloMessage)
  .refine(oneMessage, { message: 'give exactly one of SAMLRequest or SAMLResponse', path: ['SAMLRequest'] });
const sloDescription =
  'Public, for browsers: the identity provider’s logout requests (IdP-initiated single logout: our sessions for that NameID end and the IdP gets our signed LogoutResponse) and logout responses (end of an SP-initiated logout: the browser goes on to the logout’s redirect URI). `slo_url` and `slo_response_url` both lead here.';

/** Both bindings of single logout answer alike. */
const sloResponse = {
  status: 302,
  description: 'Redirect: to the identity provider with the logout response, or back to the application',
  schema: z.string(),
  contentType: 'text/html',
  others: [{ status: 200, description: 'An HTML page saying the user is signed out, when the IdP has no logout service' }],
};

export const ssoSamlSloGet = defineOperation({
  operationId: 'ssoSamlSloRedirectBinding',
  method: 'get',
  path: '/sso/saml/{sp_id}/slo',
  aliases: ['/sso/saml/{sp_id}/slo/response'],
  tag: 'SSO',
  summary: 'Browser: single logout (HTTP-Redirect binding)',
  description: sloDescription,
  auth: 'none',
  subject: subjects.authMethods.sso.sloGet,
  request: { params: spIdParamsSchema, query: sloQuery },
  response: sloResponse,
  errors: [],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.ssoSamlSloRedirectBinding,
});

export const ssoSamlSloPost = defineOperation({
  operationId: 'ssoSamlSloPostBinding',
  method: 'post',
  path: '/sso/saml/{sp_id}/slo',
  aliases: ['/sso/saml/{sp_id}/slo/response'],
  tag: 'SSO',
  summary: 'Browser: single logout (HTTP-POST binding)',
  description: sloDescription,
  auth: 'none',
  subject: subjects.authMethods.sso.sloPost,
  request: { params: spIdParamsSchema, body: sloBody },
  response: sloResponse,
  errors: [],
  rateLimits: [perIp('sso_ip')],
  examples: ssoExamples.ssoSamlSloPostBinding,
});

export const ssoOperations = [
  createSsoConnection,
  getSsoConnection,
  updateSsoConnection,
  listSsoConnections,
  getSpMetadata,
  createSsoSamlChallenge,
  ssoSamlAuthorize,
  ssoSamlAcs,
  ssoOidcCallback,
  createSsoSamlLogout,
  ssoSamlLogoutRedirect,
  ssoSamlSloGet,
  ssoSamlSloPost,
];
