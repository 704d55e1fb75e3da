import { z } from '../zod';

/** ISO 8601 timestamp as emitted by `Date.prototype.toISOString`. */
export const timestampSchema = z.iso.datetime();
export const uuidSchema = z.uuid();
export const nullableString = () => z.string().nullable().optional();

/** A DNS domain name such as `acme.com` (lowercase letters, digits, dashes, dots). */
export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'is not a valid domain name');

/** Absolute http(s) URL. */
export const httpUrlSchema = z.url({ protocol: /^https?$/, hostname: /.+/ });

/** Parses booleans sent as JSON booleans or as form strings ("true", "false", "1", "0"). */
export const booleanInputSchema = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const lowered = value.trim().toLowerCase();
  if (lowered === 'true' || lowered === '1') return true;
  if (lowered === 'false' || lowered === '0') return false;
  return value;
}, z.boolean());

/** Parses integers sent as JSON numbers or as form/query strings. */
export const integerInputSchema = z.preprocess((value) => {
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}, z.number().int());

/** A list sent as a JSON array or as `name[]=a&name[]=b` (a lone string becomes a one-item list). */
export const listInputSchema = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(item));
