import type { ssoProviderTypes } from '@sesame/contracts';

/** `provider_type` of an SSO connection (contracts). */
export type SsoProviderType = (typeof ssoProviderTypes)[number];

/** The identity providers the page knows, in the order it offers them (every `provider_type` of an SSO connection). */
export const providers = [
  'azure_ad',
  'okta',
  'google',
  'adfs',
  'onelogin',
  'ping_one',
  'ping_federate',
  'auth0',
  'custom_saml',
] as const satisfies readonly SsoProviderType[];
export type Provider = (typeof providers)[number];

/** Display names: product names, the same in every language. */
export const providerNames: Record<SsoProviderType, string> = {
  azure_ad: 'Microsoft Entra ID (Azure AD)',
  adfs: 'Active Directory Federation Services (AD FS)',
  google: 'Google Workspace',
  okta: 'Okta',
  ping_federate: 'PingFederate',
  ping_one: 'PingOne',
  auth0: 'Auth0',
  onelogin: 'OneLogin',
  custom_saml: 'Other SAML 2.0 provider',
};

/** The protocols an SSO connection speaks (`type` of an SSO connection). */
export const protocols = ['saml', 'oidc'] as const;
export type Protocol = (typeof protocols)[number];

/**
 * The OpenID Connect providers the page offers, by the `provider_type` recorded on the connection.
 * The generic one has no type of its own: it is recorded as `custom_saml` (the API's "other provider").
 */
export const oidcProviders = ['azure_ad', 'okta', 'google', 'custom_saml'] as const satisfies readonly SsoProviderType[];
export type OidcProvider = (typeof oidcProviders)[number];

export const oidcProviderNames: Record<OidcProvider, string> = {
  azure_ad: 'Microsoft Entra ID',
  okta: 'Okta',
  google: 'Google Workspace',
  custom_saml: 'Other OpenID Connect provider',
};

export const isOidcProvider = (provider: SsoProviderType): provider is OidcProvider =>
  (oidcProviders as readonly SsoProviderType[]).includes(provider);
