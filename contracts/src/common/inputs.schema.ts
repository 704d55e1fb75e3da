import { z } from '../zod';

/** An optional, nullable field where an empty form value (`color=`) means null. */
export const optionalNullable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? null : value), schema.nullable()).optional();

export const hexColorSchema = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a hex colour such as #1a2b3c');

export const localeSchema = z.string().refine((value) => {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}, 'is not a valid locale');

const timeZones = new Set(Intl.supportedValuesOf('timeZone'));
timeZones.add('UTC');
export const timezoneSchema = z.string().refine((value) => timeZones.has(value), 'is not a valid IANA time zone');

/**
 * A vendor's own identifier of its customer (an organization's `tenant_id`): 1 to 128 letters,
 * digits, dots, underscores, colons or dashes, kept as sent (case matters).
 */
export const tenantIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]*$/, 'must contain only letters, digits, dots, underscores, colons and dashes');

export const orgDomainParamsSchema = z.object({
  org_domain: z.string().min(1).max(100).meta({ description: 'Domain (slug) of the organization' }),
});
