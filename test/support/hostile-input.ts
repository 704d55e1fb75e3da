import fc from 'fast-check';
import type { DocumentedOperation, DocumentedParameter, JsonSchema, OpenApiDocument } from './openapi';
import type { RawRequest } from './raw-http';

/** Strings that break naive code: encodings, invisible and combining characters, injections. */
export const edgeStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  '\ufeffbom',
  '\u200b',
  'e\u0301\u0301\u0301',
  'İı',
  'ß',
  'ﬃ',
  '＠',
  '𝕬𝖈𝖒𝖊',
  '👩‍👩‍👧‍👦',
  '\r\nSet-Cookie: x=1',
  '\n',
  '\t',
  '../../../etc/passwd',
  '..\\..\\windows',
  '%2e%2e%2f',
  '%00',
  '%',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '{"$gt": ""}',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\u001b[31mred',
  'a@b',
  '@',
  'x'.repeat(256),
  'é'.repeat(300),
  '1e309',
  '-0',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
];

const edgeString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...edgeStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '😀', '\u0000', '\ud800'), fc.constantFrom(3_000, 30_000, 200_000))
      .map(([unit, n]) => unit.repeat(n)),
  },
);

/** Arrays or objects nested `depth` deep (depth far beyond any schema). */
const deeplyNested = fc.tuple(fc.constantFrom(30, 500, 2_000), fc.boolean()).map(([depth, asArray]) => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
});

/** Any JSON value, biased to the wrong type for whatever field it lands in. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: edgeString },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e-308, Number.MAX_SAFE_INTEGER) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.array(edgeString, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(1, 'a', null), { minLength: 101, maxLength: 300 }) },
  { weight: 1, arbitrary: fc.dictionary(edgeString, edgeString, { maxKeys: 4 }) },
  { weight: 1, arbitrary: deeplyNested },
);

/** A plausible value for a schema, so that other fields' validation is reached too. */
export function plausibleValue(document: OpenApiDocument, schema: JsonSchema, depth = 0, name = ''): fc.Arbitrary<unknown> {
  const resolved = document.resolve(schema);
  if (Array.isArray(resolved.enum)) return fc.constantFrom(...resolved.enum);
  const choices = resolved.anyOf ?? resolved.oneOf;
  if (Array.isArray(choices) && choices.length > 0)
    return fc.oneof(...choices.map((choice: JsonSchema) => plausibleValue(document, choice, depth, name)));
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  switch (type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: resolved.minimum ?? 0, max: Math.min(resolved.maximum ?? 1_000, 1_000_000) });
    case 'number':
      return fc.double({ min: resolved.minimum ?? 0, max: resolved.maximum ?? 1_000, noNaN: true });
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(plausibleValue(document, resolved.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : plausibleObject(document, resolved, depth + 1);
    case 'string':
      return plausibleString(resolved, name);
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer());
  }
}

/** A string the schema accepts, guessed from the field's name, then its format, pattern and description. */
function plausibleString(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  const email = fc.nat(1_000_000).map((n) => `fuzz${n}@example.com`);
  const url = fc.nat(1_000_000).map((n) => `https://example.com/cb/${n}`);
  if (/email/i.test(name)) return email;
  if (/(url|uri)$/i.test(name)) return url;
  if (schema.format === 'email') return email;
  if (schema.format === 'uri') return url;
  if (schema.format === 'uuid') return fc.uuid();
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).map((text) => text.slice(0, schema.maxLength ?? 64));
    } catch {
      // fast-check does not generate every regular expression (lookaheads): fall through.
    }
  }
  if (/e\.164/i.test(schema.description ?? '')) return fc.constantFrom('+33612345678', '+14155552671');
  return fc.string({ minLength: schema.minLength ?? 1, maxLength: Math.min(schema.maxLength ?? 20, 20) });
}

function plausibleObject(document: OpenApiDocument, schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries<JsonSchema>(schema.properties ?? {});
  const required = new Set<string>(schema.required ?? []);
  return fc.record(
    Object.fromEntries(properties.map(([name, property]) => [name, plausibleValue(document, property, depth, name)])),
    {
      requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
    },
  );
}

/** A body for an operation: its documented fields, each plausible, hostile or left out, plus junk keys. */
function hostileObject(document: OpenApiDocument, schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries<JsonSchema>(document.resolve(schema).properties ?? {});
  const field = (name: string, property: JsonSchema) =>
    fc.oneof({ weight: 2, arbitrary: plausibleValue(document, property, 0, name) }, { weight: 1, arbitrary: hostileValue });
  return fc
    .tuple(
      fc.record(Object.fromEntries(properties.map(([name, property]) => [name, field(name, property)])), { requiredKeys: [] }),
      fc.array(
        fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', '__type__'), edgeString), hostileValue),
        {
          maxLength: 2,
        },
      ),
    )
    .map(([fields, junk]) => {
      const body: Record<string, unknown> = { ...fields };
      // Own properties, so that `__proto__` is sent as a key rather than setting the prototype.
      for (const [key, value] of junk)
        Object.defineProperty(body, key, { value, enumerable: true, configurable: true, writable: true });
      return body;
    });
}

/** Percent-encoding of the UTF-8 bytes (lone surrogates become U+FFFD instead of throwing). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/**
 * Bracket notation form encoding, as the client SDKs send forms (`profile[given_name]=Ada`);
 * past 40 levels the rest is sent as one literal value.
 */
export function formEncode(value: unknown, prefix = '', depth = 0): string {
  if (value === null || value === undefined) return `${percentEncode(prefix)}=`;
  if (typeof value === 'object' && depth > 40) return `${percentEncode(prefix)}=deep`;
  if (Array.isArray(value))
    return value.length === 0
      ? `${percentEncode(`${prefix}[]`)}=`
      : value.map((item) => formEncode(item, `${prefix}[]`, depth + 1)).join('&');
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return prefix ? `${percentEncode(prefix)}=` : '';
    return entries.map(([key, item]) => formEncode(item, prefix ? `${prefix}[${key}]` : key, depth + 1)).join('&');
  }
  return `${percentEncode(prefix)}=${percentEncode(String(value))}`;
}

/** Bodies no schema-shaped generator would produce: broken syntax, deep brackets, too many fields. */
const rawBodies = fc.oneof(
  fc.constantFrom(
    ['application/json', '{"name": "unterminated'],
    ['application/json', '{"a":1}garbage'],
    ['application/json', 'null'],
    ['application/json', '"a string"'],
    ['application/json', '[1,2,3]'],
    ['application/json', '12345678901234567890123456789'],
    ['application/json', '{"a":1,"a":2}'],
    ['application/json', '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'],
    ['application/json', '\ufeff{"name": "bom"}'],
    ['application/json', ''],
    ['application/json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['application/json', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`],
    ['application/x-www-form-urlencoded', `${'a'}${'[b]'.repeat(50)}=1`],
    ['application/x-www-form-urlencoded', `profile${'[x]'.repeat(6)}=1`],
    ['application/x-www-form-urlencoded', `name[${'['.repeat(1_000)}=1`],
    ['application/x-www-form-urlencoded', Array.from({ length: 3_000 }, (_, i) => `f${i}=${i}`).join('&')],
    ['application/x-www-form-urlencoded', `${Array.from({ length: 500 }, () => 'allowed_email_domains[]=a.com').join('&')}`],
    ['application/x-www-form-urlencoded', 'allowed_email_domains[999999999]=a.com'],
    ['application/x-www-form-urlencoded', '__proto__[polluted]=1&constructor[prototype][polluted]=1'],
    ['application/x-www-form-urlencoded', 'name=%E0%A4%A&email=%ZZ&%=%'],
    ['application/x-www-form-urlencoded', '&&&==&='],
    ['text/plain', 'name=plain'],
    ['application/xml', '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nmulti\r\n--x--'],
    ['application/json; charset=utf-16le', Buffer.from('{"name":"utf16"}', 'utf16le').toString('latin1')],
    ['APPLICATION/JSON', '{"name": 1}'],
    ['application/json, text/plain', '{"name": 1}'],
    ['application/x-www-form-urlencoded', '{"name": "json sent as a form"}'],
    ['application/json', 'name=form+sent+as+json'],
  ),
  fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ['application/json', text]),
) as fc.Arbitrary<[string, string]>;

/** Values for path parameters that try to escape their segment or their type. */
const hostileSegments = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '../../../etc/passwd',
    '..%2f..%2fadmin',
    '%2e%2e%2f%2e%2e%2f',
    '%252e%252e%252f',
    '..%5c..%5c',
    '%00',
    '%00.json',
    '%ff%fe',
    '%',
    '%zz',
    '%0d%0aSet-Cookie:%20x=1',
    '~',
    'null',
    'undefined',
    '-1',
    '0',
    '99999999999999999999999',
    '00000000-0000-0000-0000-000000000000',
    'a'.repeat(5_000),
    '%20',
    ';',
    '*',
  ),
  edgeString.map((value) => percentEncode(value.slice(0, 3_000)).replace(/%2F/gi, '/')),
  fc.uuid(),
);

/** Values for query parameters: wrong types, brackets, repeats. */
const hostileQueryPairs = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constantFrom('page', 'per_page', 'current_page'),
      fc.constantFrom('-1', '0', '1.5', '1e309', '9'.repeat(40), 'abc', '', '%00'),
    ),
    fc.tuple(
      fc.constantFrom('page[]', 'per_page[a]', `q${'[a]'.repeat(20)}`, 'q[environments_status_in]', '__proto__[x]'),
      fc.constantFrom('1', 'up'),
    ),
    fc.tuple(
      edgeString.map((key) => percentEncode(key.slice(0, 200))),
      edgeString.map((value) => percentEncode(value.slice(0, 2_000))),
    ),
  ),
  { maxLength: 4 },
);

export interface Fixtures {
  /** A valid value for a path parameter of an operation, when one exists. */
  pathValue(operation: DocumentedOperation, parameter: DocumentedParameter): string | undefined;
  /** Headers that authenticate a secured operation. */
  authorization(): Record<string, string>;
}

/**
 * A hostile request for an operation, derived from its documented parameters and body: each
 * part is either plausible (so that the next check is reached) or hostile.
 */
export function hostileRequest(
  document: OpenApiDocument,
  operation: DocumentedOperation,
  fixtures: Fixtures,
): fc.Arbitrary<RawRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const segment = (parameter: DocumentedParameter) => {
    const valid = fixtures.pathValue(operation, parameter);
    return valid === undefined
      ? hostileSegments
      : fc.oneof({ weight: 2, arbitrary: fc.constant(valid) }, { weight: 1, arbitrary: hostileSegments });
  };
  const documentedQuery = fc.record(
    Object.fromEntries(
      queryParameters.map((parameter) => [
        parameter.name,
        fc.oneof(
          plausibleValue(document, parameter.schema),
          hostileValue.filter((value) => typeof value !== 'object' || value === null),
        ),
      ]),
    ),
    { requiredKeys: [] },
  );
  const body = operation.body
    ? fc.oneof(
        {
          weight: 3,
          arbitrary: hostileObject(document, operation.body).map(
            (value) => ['application/json', JSON.stringify(value)] as [string, string],
          ),
        },
        {
          weight: 2,
          arbitrary: hostileObject(document, operation.body).map(
            (value) => ['application/x-www-form-urlencoded', formEncode(value)] as [string, string],
          ),
        },
        { weight: 2, arbitrary: rawBodies },
      )
    : fc.option(rawBodies, { nil: undefined, freq: 4 });
  const headers = fc.record(
    {
      'x-correlation-id': fc.oneof(
        fc.constantFrom('ok-id.1:2', 'a'.repeat(200), '<script>', 'id with spaces', 'é'),
        fc.string({ unit: 'binary-ascii', maxLength: 20 }).filter((value) => /^[\t\x20-\x7e]*$/.test(value)),
      ),
      accept: fc.constantFrom('application/xml', 'text/html', '*/*', 'application/json;q=0'),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x-unknown'),
    },
    { requiredKeys: [] },
  );
  return fc
    .record({
      segments: fc.tuple(...pathParameters.map(segment)),
      query: documentedQuery,
      extraQuery: hostileQueryPairs,
      body,
      headers,
      authenticated: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    })
    .map(({ segments, query, extraQuery, body: sent, headers: extraHeaders, authenticated }) => {
      let path = operation.path;
      pathParameters.forEach((parameter, index) => {
        path = path.replace(`{${parameter.name}}`, segments[index] as string);
      });
      const pairs = [
        ...Object.entries(query).map(([key, value]) => formEncode(value, key)),
        ...extraQuery.map(([key, value]) => `${key}=${value}`),
      ].filter(Boolean);
      if (pairs.length > 0) path += `?${pairs.join('&')}`;
      const headersSent: Record<string, string> = {
        ...extraHeaders,
        ...(operation.secured && authenticated ? fixtures.authorization() : {}),
      };
      if (sent) headersSent['content-type'] = sent[0];
      return {
        method: operation.method.toUpperCase(),
        path,
        headers: headersSent,
        body: sent ? Buffer.from(sent[1], sent[0].includes('utf-16') ? 'latin1' : 'utf8') : undefined,
      };
    });
}
