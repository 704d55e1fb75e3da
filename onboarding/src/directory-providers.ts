import type { onboardingDirectoryProviders } from '@sesame/contracts';

/** `provider_type` of a directory sync the onboarding page offers (contracts). */
export type DirectoryProvider = (typeof onboardingDirectoryProviders)[number];

/** The directories the page offers, in its order. */
export const directoryProviders = [
  'azure_ad',
  'okta',
  'onelogin',
  'jumpcloud',
  'generic',
] as const satisfies readonly DirectoryProvider[];

/** Product names, the same in every language (`generic` is named by the messages). */
export const directoryProviderNames: Record<Exclude<DirectoryProvider, 'generic'>, string> = {
  azure_ad: 'Microsoft Entra ID',
  okta: 'Okta',
  onelogin: 'OneLogin',
  jumpcloud: 'JumpCloud',
};
