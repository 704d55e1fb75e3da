import qs from 'qs';

/**
 * Form and query decoding with bracket notation, as the client SDKs of this API send it:
 * `profile[given_name]=Ada`, `allowed_email_domains[]=acme.com`, `q[environments_status_in][]=up`.
 * Depth and sizes are capped so that hostile input cannot blow up the parser; fields past
 * `parameterLimit` are dropped. Brackets nested deeper than `depth` make the whole request a 400
 * (`formTooDeepMessage`). The parser never throws: it runs in the router (query strings) and in a
 * body parser callback, where an exception would bring the whole gateway down; it marks the
 * fields it could not read instead (`isNestedTooDeep`).
 */
export const bracketOptions: qs.IParseOptions = {
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 1_000,
  allowPrototypes: false,
  strictDepth: true,
};

export const formTooDeepMessage = `Form fields nested too deep (at most ${bracketOptions.depth} levels of brackets)`;

const nestedTooDeep = Symbol('nestedTooDeep');

export function parseBrackets(text: string): Record<string, unknown> {
  try {
    return qs.parse(indexArraysOfObjects(text), bracketOptions) as Record<string, unknown>;
  } catch {
    // qs throws only a RangeError past `depth` (strictDepth).
    return { [nestedTooDeep]: true } as Record<string, unknown>;
  }
}

/** Whether `fields` came from `parseBrackets` on text whose brackets nest past the limit. */
export function isNestedTooDeep(fields: unknown): boolean {
  return typeof fields === 'object' && fields !== null && nestedTooDeep in fields;
}

/** `list[][field]`: an array of objects whose elements carry no index. */
const unindexedElement = /^([^[\]]+)\[\]\[([^\]]*)\](.*)$/s;

/**
 * Gives an index to the elements of arrays of objects sent without one, as Rails and Rack read them
 * and the SDKs send them: `attributes[][name]=a&attributes[][value]=b&attributes[][name]=c` is two
 * elements, a new one starting when a field repeats (`attributes[0][name]=a&attributes[0][value]=b&
 * attributes[1][name]=c`). Other fields are left as they are.
 */
export function indexArraysOfObjects(text: string): string {
  if (!/\[\]|%5B%5D/i.test(text)) return text;
  const elements = new Map<string, { index: number; fields: Set<string> }>();
  return text
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawKey = equals === -1 ? pair : pair.slice(0, equals);
      let key: string;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        return pair;
      }
      const match = unindexedElement.exec(key);
      if (!match) return pair;
      const [, list, field, rest] = match as unknown as [string, string, string, string];
      const element = elements.get(list) ?? { index: -1, fields: new Set<string>() };
      if (element.index === -1 || element.fields.has(field)) {
        element.index += 1;
        element.fields.clear();
      }
      element.fields.add(field);
      elements.set(list, element);
      const indexed = encodeURIComponent(`${list}[${element.index}][${field}]${rest}`);
      return equals === -1 ? indexed : `${indexed}${pair.slice(equals)}`;
    })
    .join('&');
}
