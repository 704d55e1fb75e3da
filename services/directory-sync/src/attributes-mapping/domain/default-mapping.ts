import type { AttributeMapping } from '@sesame/contracts';

const optional = (name: string, mapped_name: string): AttributeMapping => ({ name, mapped_name, required: false });

/**
 * The mapping of an environment that has not set one: the SCIM core attributes that have a
 * Sesame user field. A multi-valued attribute (`emails.value`) reads its primary entry, else
 * its `work` one, else its first one. Optional, so that a provider sending an unusable value (a
 * phone number that is not E.164) still provisions the user without it.
 */
export const defaultAttributesMapping: AttributeMapping[] = [
  optional('emails.value', 'email'),
  optional('phoneNumbers.value', 'phone_number'),
  optional('name.givenName', 'profile.given_name'),
  optional('name.familyName', 'profile.family_name'),
  optional('nickName', 'profile.nickname'),
  optional('userName', 'profile.preferred_username'),
  optional('preferredLanguage', 'profile.locale'),
  optional('timezone', 'profile.zoneinfo'),
  optional('profileUrl', 'profile.website'),
  optional('addresses.formatted', 'address.formatted'),
  optional('addresses.streetAddress', 'address.street_address'),
  optional('addresses.locality', 'address.locality'),
  optional('addresses.region', 'address.region'),
  optional('addresses.postalCode', 'address.postal_code'),
  optional('addresses.country', 'address.country'),
];
