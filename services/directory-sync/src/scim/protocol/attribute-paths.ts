/** An attribute of a schema, with its sub-attributes by lower-cased name. */
export interface AttributeName {
  name: string;
  complex: boolean;
  multiValued: boolean;
  subs: Map<string, string>;
}

/** The attribute names of a schema (its URN and attributes by lower-cased name). */
export interface SchemaNames {
  urn: string;
  attributes: Map<string, AttributeName>;
}

/** The names a resource type's paths may use: its core schema and its extensions. */
export interface ResourceNames {
  core: SchemaNames;
  extensions: SchemaNames[];
}

interface AttributeDescription {
  name: string;
  type: string;
  multiValued: boolean;
  subAttributes?: { name: string }[];
}

/** The names of a schema from its description (RFC 7643 section 7). */
export function schemaNames(urn: string, attributes: AttributeDescription[]): SchemaNames {
  return {
    urn,
    attributes: new Map(
      attributes.map((attribute) => [
        attribute.name.toLowerCase(),
        {
          name: attribute.name,
          complex: attribute.type === 'complex',
          multiValued: attribute.multiValued,
          subs: new Map((attribute.subAttributes ?? []).map((sub) => [sub.name.toLowerCase(), sub.name])),
        },
      ]),
    ),
  };
}

/** A path resolved against the schemas: written canonically, with the attribute it targets when known. */
export interface ResolvedPath {
  path: string;
  attribute: AttributeName | null;
  /** The value filter (`type eq "work"`), canonical, without its brackets. */
  valueFilter: string | null;
  sub: string | null;
}

const quoted = /("(?:[^"\\]|\\.)*")/;

/** The attribute names of a value filter in their canonical case (quoted values untouched). */
function canonicalFilter(filter: string, subName: (name: string) => string): string {
  return filter
    .split(quoted)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/[A-Za-z$][\w$]*/g, subName)))
    .join('');
}

/**
 * A PATCH path (RFC 7644 section 3.5.2) as the schemas write it: attribute names and schema
 * URNs are case-insensitive (RFC 7643 section 2.1), and the core schema's URN may prefix a
 * core attribute (`urn:...:core:2.0:User:name.givenName` is `name.givenName`). A path naming
 * no known attribute is given back as it came (the PATCH refuses it).
 */
export function resolvePath(path: string, names: ResourceNames): ResolvedPath {
  const trimmed = path.trim();
  const unknown: ResolvedPath = { path: trimmed, attribute: null, valueFilter: null, sub: null };
  const lowered = trimmed.toLowerCase();
  let schema = names.core;
  let prefix = '';
  let rest = trimmed;
  for (const candidate of [names.core, ...names.extensions]) {
    const urn = candidate.urn.toLowerCase();
    if (lowered === urn) return { ...unknown, path: candidate.urn };
    if (!lowered.startsWith(`${urn}:`)) continue;
    schema = candidate;
    prefix = candidate === names.core ? '' : `${candidate.urn}:`;
    rest = trimmed.slice(urn.length + 1);
    break;
  }
  const parts = /^([^.[\]]+)(?:\[(.*)\])?(?:\.([^.[\]]+))?$/.exec(rest);
  const attribute = parts ? schema.attributes.get((parts[1] as string).toLowerCase()) : undefined;
  if (!parts || !attribute) return unknown;
  const subName = (name: string) => attribute.subs.get(name.toLowerCase()) ?? name;
  const valueFilter = parts[2] === undefined ? null : canonicalFilter(parts[2], subName);
  const sub = parts[3] === undefined ? null : subName(parts[3]);
  const canonical = `${prefix}${attribute.name}${valueFilter === null ? '' : `[${valueFilter}]`}${sub === null ? '' : `.${sub}`}`;
  return { path: canonical, attribute, valueFilter, sub };
}

/** Whether an attribute is complex, single-valued and has a `value` (the enterprise `manager`). */
export const takesBareValue = (attribute: AttributeName | null): boolean =>
  attribute !== null && attribute.complex && !attribute.multiValued && attribute.subs.has('value');
