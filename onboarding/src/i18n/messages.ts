import type { SsoProviderType } from '../providers';

export type Language = 'en' | 'fr';
export const languages: Language[] = ['en', 'fr'];

/** Why the page cannot be used with a link. */
export type InvitationProblem = 'missing' | 'invalid' | 'used' | 'expired' | 'declined' | 'unavailable';

/** Every text of the page, in one language. */
export interface Messages {
  languageName: string;
  title: string;
  loading: string;
  invitedAs(email: string, organization: string): string;
  validUntil(date: string): string;
  signInDomains(domains: string): string;
  problems: Record<InvitationProblem, { title: string; text: string }>;
  charge: {
    title: string;
    question(organization: string): string;
    accept: string;
    decline: string;
    confirmDecline: string;
    cancel: string;
    accepted(date: string): string;
    declinedTitle: string;
    declinedText(organization: string): string;
    failed: string;
  };
  steps: {
    provider: string;
    providerHelp: string;
    values: string;
    valuesHelp(provider: string): string;
    instructions(provider: string): string;
  };
  values: { acsUrl: string; entityId: string; metadataUrl: string; copy: string; copied: string };
  metadata: {
    title: string;
    help(provider: string): string;
    file: string;
    paste: string;
    save: string;
    refused: string;
    saved: string;
    connected(provider: string): string;
    idpEntityId: string;
    ssoUrl: string;
    certificate(fingerprint: string, until: string): string;
  };
  test: {
    title: string;
    help: string;
    start: string;
    refused: string;
    pending: string;
    succeeded: string;
    failed(message: string): string;
    nameId: string;
    email: string;
    attribute: string;
    values: string;
    profile: string;
  };
  instructions: Record<SsoProviderType, string[]>;
}
