import type { ProfileInput, SsoProviderType } from '@sesame/contracts';

type Field = 'email' | 'given_name' | 'family_name' | 'nickname' | 'preferred_username' | 'picture' | 'locale';

const claims = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
const microsoft = 'http://schemas.microsoft.com/identity/claims';

/** The claim names that carry each attribute, as each provider names them by default (first match wins). */
const providerClaims: Partial<Record<SsoProviderType, Partial<Record<Field, string[]>>>> = {
  azure_ad: {
    email: [`${claims}/emailaddress`, `${claims}/name`],
    given_name: [`${claims}/givenname`],
    family_name: [`${claims}/surname`],
    nickname: [`${microsoft}/displayname`],
  },
  adfs: {
    email: [`${claims}/emailaddress`, `${claims}/upn`],
    given_name: [`${claims}/givenname`],
    family_name: [`${claims}/surname`],
    nickname: [`${claims}/name`],
  },
  okta: { email: ['email', 'Email'], given_name: ['firstName', 'FirstName'], family_name: ['lastName', 'LastName'] },
  google: { email: ['email'], given_name: ['first_name', 'firstName'], family_name: ['last_name', 'lastName'] },
  onelogin: {
    email: ['User.email', 'Email'],
    given_name: ['User.FirstName', 'FirstName'],
    family_name: ['User.LastName', 'LastName'],
  },
  ping_federate: { email: ['mail', 'email', 'Email'], given_name: ['givenName', 'first_name'], family_name: ['sn', 'last_name'] },
  ping_one: { email: ['mail', 'email', 'Email'], given_name: ['givenName', 'first_name'], family_name: ['sn', 'last_name'] },
  auth0: {
    email: [`${claims}/emailaddress`, 'email'],
    given_name: [`${claims}/givenname`, 'given_name'],
    family_name: [`${claims}/surname`, 'family_name'],
    nickname: ['http://schemas.auth0.com/nickname', 'nickname'],
    picture: ['http://schemas.auth0.com/picture', 'picture'],
  },
};

/** Names any provider may use (OIDC-style, LDAP, OIDs, WS-Federation claims). */
const commonClaims: Record<Field, string[]> = {
  email: ['email', 'Email', 'mail', 'emailAddress', 'urn:oid:0.9.2342.19200300.100.1.3', `${claims}/emailaddress`],
  given_name: ['given_name', 'givenName', 'firstName', 'first_name', 'urn:oid:2.5.4.42', `${claims}/givenname`],
  family_name: ['family_name', 'familyName', 'lastName', 'last_name', 'sn', 'surname', 'urn:oid:2.5.4.4', `${claims}/surname`],
  nickname: ['nickname', 'displayName', 'display_name', 'urn:oid:2.16.840.1.113730.3.1.241', `${microsoft}/displayname`],
  preferred_username: ['preferred_username', 'username', 'uid', 'urn:oid:0.9.2342.19200300.100.1.1'],
  picture: ['picture', 'photo'],
  locale: ['locale', 'preferredLanguage'],
};

const looksLikeEmail = (value: string) => /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(value);

export interface MappedUser {
  email: string | null;
  profile: ProfileInput;
}

/**
 * Reads the user from a SAML assertion: the email from the provider's attribute (or the NameID
 * when it is an email address), and the profile attributes the provider sent, by the provider's
 * default claim names first, then common ones.
 */
export function mapAttributes(provider: SsoProviderType, nameId: string, attributes: Record<string, string[]>): MappedUser {
  const valueOf = (field: Field): string | undefined => {
    for (const name of [...(providerClaims[provider]?.[field] ?? []), ...commonClaims[field]]) {
      const value = attributes[name]?.find((candidate) => candidate.trim() !== '');
      if (value !== undefined) return value.trim();
    }
    return undefined;
  };
  const attributeEmail = valueOf('email');
  const email = attributeEmail && looksLikeEmail(attributeEmail) ? attributeEmail : looksLikeEmail(nameId) ? nameId : null;
  const profile: ProfileInput = {};
  for (const field of ['given_name', 'family_name', 'nickname', 'preferred_username'] as const) {
    const value = valueOf(field);
    if (value) profile[field] = value.slice(0, 255);
  }
  const picture = valueOf('picture');
  if (picture && /^https?:\/\/\S+$/.test(picture)) profile.picture = picture;
  return { email: email?.toLowerCase() ?? null, profile };
}
