import type { DirectoryProvider } from '../directory-providers';
import type { OidcProvider, SsoProviderType } from '../providers';

export type Language = 'en' | 'fr';
export const languages: Language[] = ['en', 'fr'];

/** Why the page cannot be used: the link (opened once), the session it opened, or the service. */
export type InvitationProblem =
  'missing' | 'invalid' | 'used' | 'expired' | 'revoked' | 'declined' | 'sessionEnded' | 'sessionExpired' | 'unavailable';

/** Every text of the page, in one language. */
export interface Messages {
  languageName: string;
  title: string;
  loading: string;
  invitedAs(email: string, organization: string): string;
  /** How long the session the link opened lasts in this browser, and what to do after. */
  sessionNote(until: string, idleMinutes: number): string;
  signInDomains(domains: string): string;
  problems: Record<InvitationProblem, { title: string; text: string }>;
  charge: {
    title: string;
    question(organization: string): string;
    decline: string;
    confirmDecline: string;
    cancel: string;
    accepted(date: string): string;
    declinedTitle: string;
    declinedText(organization: string): string;
    failed: string;
  };
  finish: {
    title: string;
    text(organization: string): string;
    button: string;
    failed: string;
    doneTitle: string;
    doneText(organization: string, date: string): string;
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
  /** SAML or OpenID Connect, chosen before the provider. */
  protocol: { title: string; help: string; saml: string; oidc: string };
  /** The OIDC connection: our redirect URI, the application's issuer, client id and secret. */
  oidc: {
    providerHelp: string;
    redirectUri: string;
    scopes(scopes: string): string;
    title: string;
    help(provider: string): string;
    issuer: string;
    clientId: string;
    clientSecret: string;
    secretSet: string;
    save: string;
    refused: string;
    saved: string;
  };
  oidcInstructions: Record<OidcProvider, string[]>;
  /** The directory sync step (SCIM provisioning), when the invitation allows it. */
  directory: {
    /** The page's title when the invitation allows directory sync only. */
    pageTitle: string;
    title: string;
    help: string;
    genericProvider: string;
    create: string;
    refused: string;
    credentials: string;
    baseUrl: string;
    token: string;
    tokenOnce: string;
    tokenHint(hint: string): string;
    rotate: string;
    rotateConfirm: string;
    instructions(provider: string): string;
    status: string;
    lastRequest: string;
    noRequest: string;
    users: string;
    groups: string;
    lastError: string;
    noError: string;
    error(date: string, status: number, detail: string): string;
    refresh: string;
  };
  directoryInstructions: Record<DirectoryProvider, string[]>;
  /** The email domains step (DNS TXT verification), when the invitation allows it. */
  domains: {
    title: string;
    help: string;
    none: string;
    status: Record<'unverified' | 'pending' | 'verified', string>;
    start: string;
    recordHelp: string;
    recordType: string;
    recordName: string;
    recordValue: string;
    verify: string;
    verifiedOn(date: string): string;
    /** What a refused check means, by the error's type; `other` for any other refusal. */
    failures: Record<string, string> & { other: string };
  };
}
