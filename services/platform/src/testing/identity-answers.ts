import type { Organization, User } from '@sesame/contracts';

export const acmeId = '00000000-0000-4000-8000-0000000000ac';

/** The organization `acme` of the sandbox, as identity answers it (service specifications' call tables). */
export function anOrganization(fields: Partial<Organization> = {}): Organization {
  return {
    __type__: 'Organization',
    __domain__: 'acme',
    __environment__: 'sandbox',
    id: acmeId,
    name: 'Acme',
    domain: 'acme',
    tenant_id: null,
    allowed_email_domains: ['acme.example'],
    allowed_authn_connections: ['password', 'magic_link', 'sso', 'totp'],
    color: null,
    icon_logo_url: null,
    inline_logo_url: null,
    locale: null,
    timezone: null,
    environments: [],
    status: { state: 'terminated', errors: [], progress_in_percentage: 100, estimated_time_to_complete_in_seconds: 0 },
    inserted_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as Organization;
}

/** A user of `acme`, as identity answers it. */
export function aUser(fields: Partial<User> = {}): User {
  return {
    __type__: 'User',
    __domain__: 'acme',
    __environment__: 'sandbox',
    id: '00000000-0000-4000-8000-0000000000a1',
    active: true,
    email: 'ada@acme.example',
    email_verified: true,
    phone_number: null,
    phone_number_verified: false,
    phone_numbers: [],
    address: { country: null, formatted: null, locality: null, postal_code: null, region: null, street_address: null },
    profile: {
      birthdate: null,
      family_name: 'Lovelace',
      given_name: 'Ada',
      gender: null,
      locale: null,
      nickname: null,
      picture: null,
      preferred_username: null,
      website: null,
      zoneinfo: null,
    },
    identities: [],
    metadata: {},
    inserted_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as User;
}
