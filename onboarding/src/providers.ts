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
