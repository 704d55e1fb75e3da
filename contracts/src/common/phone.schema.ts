import { ParseError, parsePhoneNumberWithError } from 'libphonenumber-js';
import { z } from '../zod';

export const phoneErrors = {
  notAPhoneNumber: 'not a phone number',
  invalidCountryCallingCode: 'invalid country calling code',
} as const;

export interface ParsedPhoneNumber {
  /** E.164, e.g. `+33612345678`. */
  value: string;
  /** Country calling code without `+`, e.g. `33`. */
  phone_country_code: string;
  phone_national_number: string;
}

/**
 * Parses a phone number written in international form (SPEC.md section 5: E.164, errors
 * 'not a phone number' and 'invalid country calling code'). Spaces, dots and dashes are
 * accepted and removed; a number without its `+<country code>` has no country calling code.
 */
export function parsePhoneNumber(input: string): ParsedPhoneNumber | { error: string } {
  try {
    const parsed = parsePhoneNumberWithError(input.trim());
    if (!parsed.isValid()) return { error: phoneErrors.notAPhoneNumber };
    return {
      value: parsed.number,
      phone_country_code: parsed.countryCallingCode,
      phone_national_number: parsed.nationalNumber,
    };
  } catch (error) {
    if (error instanceof ParseError && error.message === 'INVALID_COUNTRY')
      return { error: phoneErrors.invalidCountryCallingCode };
    return { error: phoneErrors.notAPhoneNumber };
  }
}

/**
 * A phone number input, normalized to E.164 (idempotent: the gateway and the service both
 * validate); the message says what is wrong otherwise.
 */
export const phoneNumberInputSchema = z
  .string()
  .max(40, phoneErrors.notAPhoneNumber)
  .transform((value, ctx) => {
    const parsed = parsePhoneNumber(value);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed.value;
  })
  .meta({ description: 'E.164, e.g. +33612345678 (spaces are accepted)' });
