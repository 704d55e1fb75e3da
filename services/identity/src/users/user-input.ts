import type { CreateUserBody, UpdateUserBody } from '@sesame/contracts';
import type { UserFieldsInput } from './domain/user-fields';

/** The user fields of a validated body (create, update or a service's request). */
export function userFieldsOf(
  body: Partial<Omit<CreateUserBody, 'id'>> & Partial<Pick<UpdateUserBody, 'active'>>,
): UserFieldsInput {
  const fields: UserFieldsInput = {};
  const keys = [
    'email',
    'email_verified',
    'active',
    'phone_number',
    'phone_number_verified',
    'phone_numbers',
    'address',
    'profile',
    'metadata',
  ] as const;
  for (const key of keys) if (body[key] !== undefined) Object.assign(fields, { [key]: body[key] });
  return fields;
}
