/**
 * The OpenAPI 3.0 rendition of the 3.1 document, for generators that do not read 3.1. A pure
 * function of the document: JSON Schema 2020-12 keywords become their 3.0 forms, and a keyword
 * 3.0 has no form for fails the build instead of being dropped silently.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Keys whose value maps names to nodes (`properties`, `paths`, `content`...): the names are not keywords. */
const maps = new Set([
  'properties',
  'schemas',
  'paths',
  'responses',
  'content',
  'headers',
  'securitySchemes',
  'variables',
  'requestBodies',
  'parameters',
  'encoding',
  'links',
  'callbacks',
]);

/** Values that are data, not nodes (examples, enumerations, extensions): copied as they are. */
const data = new Set(['example', 'value', 'default', 'enum', 'const', 'required']);
const isData = (key: string) => data.has(key) || key.startsWith('x-');

/** 3.1 (JSON Schema 2020-12) keywords without a 3.0 form. */
const unsupported = [
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'then',
  'else',
  'contains',
  '$defs',
  'patternProperties',
];

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullSchema = (value: Json) => isObject(value) && value.type === 'null' && Object.keys(value).length === 1;

/** `type: ['string', 'null']` becomes `type: 'string', nullable: true` (several types: `anyOf`). */
function convertTypeArray(node: JsonObject): JsonObject {
  if (!Array.isArray(node.type)) return node;
  const { type, ...rest } = node;
  const types = type.filter((name) => name !== 'null');
  const nullable: JsonObject = types.length < type.length ? { nullable: true } : {};
  if (types.length === 1) return { ...rest, type: types[0]!, ...nullable };
  return { ...rest, anyOf: types.map((name) => ({ type: name })), ...nullable };
}

/** A `{ type: 'null' }` branch of `anyOf`/`oneOf` becomes `nullable: true` on the other branches (or the node). */
function convertNullBranch(node: JsonObject, keyword: 'anyOf' | 'oneOf'): JsonObject {
  const branches = node[keyword];
  if (!Array.isArray(branches) || !branches.some(isNullSchema)) return node;
  const others = branches.filter((branch) => !isNullSchema(branch)) as JsonObject[];
  const typed = others.every((branch) => branch.type !== undefined);
  const withNull = others.map((branch) => (branch.type !== undefined ? { ...branch, nullable: true } : branch));
  return { ...node, [keyword]: withNull, ...(typed ? {} : { nullable: true }) };
}

/** The 3.0 form of one node's own keywords (its children are converted by `convert`). */
export function convertKeywords(source: JsonObject): JsonObject {
  const found = unsupported.find((keyword) => keyword in source);
  if (found) throw new Error(`OpenAPI 3.0 has no form for the JSON Schema keyword ${found}`);
  let node: JsonObject = { ...source };
  delete node.$schema;
  delete node.$id;
  node = convertTypeArray(node);
  if (node.type === 'null') {
    delete node.type;
    node = { ...node, nullable: true, enum: [null] };
  }
  if ('const' in node) {
    const { const: value, ...rest } = node;
    node = { ...rest, enum: [value!], ...(value === null ? { nullable: true } : {}) };
  }
  if (Array.isArray(node.examples)) {
    const { examples, ...rest } = node;
    node = { ...rest, ...(examples.length > 0 && !('example' in rest) ? { example: examples[0]! } : {}) };
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const)
    if (typeof node[exclusive] === 'number') node = { ...node, [bound]: node[exclusive], [exclusive]: true };
  return convertNullBranch(convertNullBranch(node, 'anyOf'), 'oneOf');
}

function convert(value: Json, key?: string): Json {
  if (key !== undefined && isData(key)) return value;
  if (Array.isArray(value)) return value.map((item) => convert(item));
  if (!isObject(value)) return value;
  if (key !== undefined && maps.has(key))
    return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child)]));
  const node = convertKeywords(value);
  return Object.fromEntries(Object.entries(node).map(([name, child]) => [name, convert(child, name)]));
}

/** The OpenAPI 3.0.3 document equivalent to an OpenAPI 3.1 document. */
export function toOpenApi30(document: object): JsonObject {
  const { openapi: _openapi, jsonSchemaDialect: _dialect, webhooks, info, ...rest } = document as JsonObject;
  const { summary: _summary, license, ...infoRest } = info as JsonObject;
  // 3.0 licenses have no SPDX `identifier`: its SPDX page becomes the `url` (unless one is given).
  const { identifier, ...license30 } = (license ?? {}) as JsonObject;
  if (typeof identifier === 'string' && license30.url === undefined)
    license30.url = `https://spdx.org/licenses/${identifier}.html`;
  const converted = convert(rest) as JsonObject;
  // 3.0 has no top-level webhooks: they become the `x-webhooks` extension (Redoc's), converted like paths.
  const xWebhooks: JsonObject =
    isObject(webhooks) && Object.keys(webhooks).length > 0 ? { 'x-webhooks': convert(webhooks, 'paths') } : {};
  return {
    openapi: '3.0.3',
    info: { ...infoRest, ...(license ? { license: license30 } : {}) },
    ...converted,
    ...xWebhooks,
  };
}
