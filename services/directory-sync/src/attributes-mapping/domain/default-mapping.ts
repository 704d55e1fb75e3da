import type { AttributeMapping } from '@sesame/contracts';

const optional = (name: string, mapped_name: string): AttributeMapping => ({ name, mapped_name, required: false });

/**
 * The mapping of an environment that has not set one: the SCIM core attributes that have a
 * Sesame user field. A multi-valued attribute (`emails.value`) reads its primary entry, or its
 * first one. Optional, so that a provider sending an unusable value (a phone number that is not
 * E.164) still provisions the user without it.
 */
export const defaultAttributesMapping: AttributeMapping[] = [
  optional('email', 'emails.value'),
  optional('phone_number', 'phoneNumbers.value'),
  optional('given_name', 'name.givenName'),
  optional('family_name', 'name.familyName'),
  optional('nickname', 'nickName'),
  optional('preferred_username', 'userName'),
  optional('locale', 'preferredLanguage'),
  optional('zoneinfo', 'timezone'),
  optional('website', 'profileUrl'),
  optional('address.formatted', 'addresses.formatted'),
  optional('address.street_address', 'addresses.streetAddress'),
  optional('address.locality', 'addresses.locality'),
  optional('address.region', 'addresses.region'),
  optional('address.postal_code', 'addresses.postalCode'),
  optional('address.country', 'addresses.country'),
];
