/**
 * What never reaches a log line: secrets by the name of their field, at any depth, and secrets
 * carried inside text (a link's `code`, `password_code` or `token` parameter, a `Bearer` header).
 */
export const redacted = '[redacted]';

/** Fields whose value is a secret wherever it appears (compared in lower case). */
const secretFields = new Set([
  'access_token',
  'authorization',
  'auth_secret_token',
  'bearertoken',
  'client_secret',
  'code',
  'code_verifier',
  'cookie',
  'first_verification_code',
  'id_token',
  'magic_link',
  'password',
  'password_code',
  'plain_text',
  'recovery_codes',
  'refresh_token',
  'secret',
  'set-cookie',
  'signature_key',
  'token',
]);

/** Query (or fragment) parameters of a link that carry a secret. */
const secretParameters = ['code', 'password_code', 'token', 'access_token', 'refresh_token', 'id_token', 'client_secret'];
const parameterPattern = new RegExp(`([?&#;](?:${secretParameters.join('|')})=)[^&#\\s"'<>]+`, 'gi');
const credentialsPattern = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const maxDepth = 12;

/** `text` with the secrets it carries replaced: link parameters and HTTP credentials. */
export function redactText(text: string): string {
  return text.replace(parameterPattern, `$1${redacted}`).replace(credentialsPattern, `$1 ${redacted}`);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * A copy of `value` without secrets: the value of a secret field is replaced at any depth, and
 * every string has its link parameters and credentials redacted. Only plain objects and arrays
 * are copied; other objects (errors, dates, buffers) are kept as they are for their serializers.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (depth >= maxDepth) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecrets(item, depth + 1)) as T;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    copy[key] = secretFields.has(key.toLowerCase()) && field != null ? redacted : redactSecrets(field, depth + 1);
  return copy as T;
}

/** Every string of `value` with its link parameters and credentials redacted; field names are left alone. */
export function redactStrings<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (depth >= maxDepth) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => redactStrings(item, depth + 1)) as T;
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, redactStrings(field, depth + 1)])) as T;
}
