import qs from 'qs';

/**
 * Form and query decoding with bracket notation, as the client SDKs of this API send it:
 * `profile[given_name]=Ada`, `allowed_email_domains[]=acme.com`, `q[environments_status_in][]=up`.
 * Depth and sizes are capped so that hostile input cannot blow up the parser, and the parser never
 * throws: it runs in the router (query strings) and in a body parser callback, where an exception
 * would bring the whole gateway down. Brackets nested deeper than `depth` stay one literal key
 * (`a[b][c][d][e][f]` → `{ a: { b: { c: { d: { e: { f: { '[g]': … } } } } } } }`), which no
 * schema accepts; fields past `parameterLimit` are dropped.
 */
export const bracketOptions: qs.IParseOptions = {
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 1_000,
  allowPrototypes: false,
  strictDepth: false,
};

export function parseBrackets(text: string): Record<string, unknown> {
  return qs.parse(text, bracketOptions) as Record<string, unknown>;
}
