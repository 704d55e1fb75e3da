import { scimFail } from './scim-error';
import type { ScimObject } from './filter';

/** Returned whatever `attributes` and `excludedAttributes` ask (RFC 7643 `returned: always`). */
const alwaysReturned = new Set(['id', 'schemas']);

interface AttributePath {
  /** Schema URN of an extension attribute, else null. */
  urn: string | null;
  name: string;
  sub: string | null;
}

const coreSchemaPrefix = 'urn:ietf:params:scim:schemas:core:2.0:';

/** `emails`, `name.givenName`, `emails[type eq "work"]` (the whole attribute), `urn:...:User:department`. */
export function parseAttributeList(list: string | undefined): AttributePath[] {
  if (!list) return [];
  return list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const path = item.replace(/\[.*\]/, '');
      let urn: string | null = null;
      let rest = path;
      if (path.toLowerCase().startsWith('urn:')) {
        const colon = path.lastIndexOf(':');
        urn = path.slice(0, colon);
        rest = path.slice(colon + 1);
        if (urn.toLowerCase().startsWith(coreSchemaPrefix)) urn = null;
      }
      const [name, sub, ...more] = rest.split('.');
      if (!name || more.length > 0) scimFail(400, `The attribute path '${item}' is not valid`, 'invalidFilter');
      return { urn, name, sub: sub ?? null };
    });
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function pick(source: ScimObject, paths: AttributePath[]): ScimObject {
  const out: ScimObject = {};
  for (const [key, value] of Object.entries(source)) {
    const wanted = paths.filter((path) => same(path.name, key));
    if (wanted.length === 0) continue;
    if (wanted.some((path) => path.sub === null)) out[key] = value;
    else {
      const subs = wanted.map((path) => path.sub as string);
      const keep = (item: unknown) =>
        typeof item === 'object' && item !== null
          ? Object.fromEntries(Object.entries(item).filter(([subKey]) => subs.some((sub) => same(sub, subKey))))
          : item;
      out[key] = Array.isArray(value) ? value.map(keep) : keep(value);
    }
  }
  return out;
}

function omit(source: ScimObject, paths: AttributePath[]): ScimObject {
  const out: ScimObject = {};
  for (const [key, value] of Object.entries(source)) {
    const excluded = paths.filter((path) => same(path.name, key));
    if (excluded.some((path) => path.sub === null) && !alwaysReturned.has(key)) continue;
    if (excluded.length === 0 || typeof value !== 'object' || value === null) {
      out[key] = value;
      continue;
    }
    const subs = excluded.map((path) => path.sub as string);
    const drop = (item: unknown) =>
      typeof item === 'object' && item !== null
        ? Object.fromEntries(Object.entries(item).filter(([subKey]) => !subs.some((sub) => same(sub, subKey))))
        : item;
    out[key] = Array.isArray(value) ? value.map(drop) : drop(value);
  }
  return out;
}

/**
 * Applies `attributes` (only these, plus id and schemas) or else `excludedAttributes` (all but
 * these) to a resource as it goes out (RFC 7644 section 3.9).
 */
export function selectAttributes(resource: ScimObject, attributes?: string, excludedAttributes?: string): ScimObject {
  const include = parseAttributeList(attributes);
  const exclude = parseAttributeList(excludedAttributes);
  if (include.length === 0 && exclude.length === 0) return resource;
  const { core, extensions } = splitExtensions(resource);
  const select = (source: ScimObject, urn: string | null) => {
    const forMe = (paths: AttributePath[]) =>
      paths.filter((path) => (urn === null ? path.urn === null : path.urn !== null && same(path.urn, urn)));
    if (include.length > 0) return pick(source, forMe(include));
    return omit(source, forMe(exclude));
  };
  const out = select(core, null);
  for (const key of alwaysReturned) if (key in resource) out[key] = resource[key];
  for (const [urn, extension] of Object.entries(extensions)) {
    const excludedWhole = exclude.some((path) => path.urn === null && same(path.name, urn));
    const selected = excludedWhole ? {} : select(extension, urn);
    if (Object.keys(selected).length > 0) out[urn] = selected;
  }
  return out;
}

function splitExtensions(resource: ScimObject): { core: ScimObject; extensions: Record<string, ScimObject> } {
  const core: ScimObject = {};
  const extensions: Record<string, ScimObject> = {};
  for (const [key, value] of Object.entries(resource))
    if (key.toLowerCase().startsWith('urn:') && typeof value === 'object' && value !== null)
      extensions[key] = value as ScimObject;
    else core[key] = value;
  return { core, extensions };
}
