import { fieldError, parsePhoneNumber } from '@sesame/contracts';
import type { Address, AddressInput, Profile, ProfileInput, User, UserMetakey } from '@sesame/contracts';
import { fail } from '@sesame/platform';

/** What a command may set on a user, already validated by the contracts (phones parsed). */
export interface UserFieldsInput {
  email?: string;
  email_verified?: boolean;
  active?: boolean;
  /** E.164 */
  phone_number?: string | null;
  phone_number_verified?: boolean;
  phone_numbers?: { value: string; primary?: boolean }[];
  address?: AddressInput;
  profile?: ProfileInput;
  metadata?: Record<string, unknown>;
}

/** A registered user metakey as a write sees it; `locked` while its deletion runs. */
export interface MetakeyRule {
  type: UserMetakey['type'];
  required: boolean;
  locked: boolean;
}
/** The registered keys a write must respect: those it touches and the required ones. */
export type MetakeyRules = Record<string, MetakeyRule>;

export const emptyAddress = (): Address => ({
  country: null,
  formatted: null,
  locality: null,
  postal_code: null,
  region: null,
  street_address: null,
});

export const emptyProfile = (): Profile => ({
  birthdate: null,
  family_name: null,
  given_name: null,
  gender: null,
  locale: null,
  nickname: null,
  picture: null,
  preferred_username: null,
  website: null,
  zoneinfo: null,
});

/** Fields left out keep their value; `null` clears one. */
export function mergeDefined<T extends object>(current: T, input: Partial<T> | undefined): T {
  const merged = { ...current };
  for (const [key, value] of Object.entries(input ?? {})) if (value !== undefined) Object.assign(merged, { [key]: value });
  return merged;
}

export function toPhoneNumbers(entries: UserFieldsInput['phone_numbers']): User['phone_numbers'] {
  const list = entries ?? [];
  const primaryIndex = Math.max(
    0,
    list.findIndex((entry) => entry.primary === true),
  );
  return list.map((entry, index) => {
    const parsed = parsePhoneNumber(entry.value);
    if ('error' in parsed) fail(fieldError(`phone_numbers.${index}.value`, parsed.error));
    return { ...parsed, primary: index === primaryIndex };
  });
}

/**
 * The phone number list after a write: an explicit `phone_numbers` wins; otherwise a new
 * `phone_number` becomes the primary entry (replacing the entry of the previous one), and a
 * cleared one leaves the list.
 */
export function phoneNumbersAfter(current: User, fields: UserFieldsInput): User['phone_numbers'] {
  if (fields.phone_numbers !== undefined) return toPhoneNumbers(fields.phone_numbers);
  if (fields.phone_number === undefined || fields.phone_number === current.phone_number) return current.phone_numbers;
  const others = current.phone_numbers.filter(
    (entry) => entry.value !== current.phone_number && entry.value !== fields.phone_number,
  );
  if (fields.phone_number === null)
    return others.map((entry, index) => ({
      ...entry,
      primary: entry.primary || (index === 0 && !others.some((e) => e.primary)),
    }));
  const parsed = parsePhoneNumber(fields.phone_number);
  if ('error' in parsed) fail(fieldError('phone_number', parsed.error));
  return [{ ...parsed, primary: true }, ...others.map((entry) => ({ ...entry, primary: false }))];
}

export const emailDomainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** SPEC.md: an email is allowed when the organization has no allowed domains or lists its domain. */
export function checkEmailDomain(email: string, allowedDomains: string[]): void {
  if (allowedDomains.length === 0 || allowedDomains.includes(emailDomainOf(email))) return;
  fail(
    fieldError(
      'email',
      `must belong to one of the organization's allowed email domains (${allowedDomains.join(', ')}), not ${emailDomainOf(email)}`,
    ),
  );
}

/** One message for every write that meets a key being deleted. */
export const metakeyLockedMessage = 'is locked: this user metakey is being deleted; try again once its deletion has finished';

/** A value converted to its key's type (form bodies send strings), or the reason it is refused. */
export function coerceMetadataValue(value: unknown, type: UserMetakey['type']): { value: unknown } | { error: string } {
  if (value === null) return { value: null };
  const text = typeof value === 'string' ? value.trim() : undefined;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? { value } : { error: 'must be a string' };
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return { value };
      if (text !== undefined && /^-?\d{1,15}$/.test(text)) return { value: Number(text) };
      return { error: 'must be an integer' };
    case 'float':
      if (typeof value === 'number' && Number.isFinite(value)) return { value };
      if (text !== undefined && text !== '' && Number.isFinite(Number(text))) return { value: Number(text) };
      return { error: 'must be a number' };
    case 'boolean':
      if (typeof value === 'boolean') return { value };
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { error: 'must be a boolean' };
    default: {
      const unknown: never = type;
      return { error: `has an unknown type ${String(unknown)}` };
    }
  }
}

/**
 * Checks a metadata map against the registered keys: types (values converted), locks, and
 * when `requireAll` (creation), the presence of every required key. Unregistered keys are free.
 */
export function checkMetadata(
  metadata: Record<string, unknown>,
  rules: MetakeyRules,
  options: { requireAll: boolean; touched: string[] },
): Record<string, unknown> {
  const errors: Record<string, string[]> = {};
  const checked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const rule = rules[key];
    if (rule?.locked && options.touched.includes(key)) errors[`metadata.${key}`] = [metakeyLockedMessage];
    else if (rule && !rule.locked) {
      const coerced = coerceMetadataValue(value, rule.type);
      if ('error' in coerced) errors[`metadata.${key}`] = [coerced.error];
      else if (coerced.value === null && rule.required) errors[`metadata.${key}`] = ["can't be blank"];
      else checked[key] = coerced.value;
    } else checked[key] = value;
  }
  if (options.requireAll)
    for (const [key, rule] of Object.entries(rules))
      if (rule.required && !rule.locked && !(key in metadata)) errors[`metadata.${key}`] = ["can't be blank"];
  if (Object.keys(errors).length > 0) fail({ kind: 'fields', fields: errors });
  return checked;
}
