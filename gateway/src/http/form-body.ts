import qs from 'qs';

/**
 * Form and query decoding with bracket notation, as the client SDKs of this API send it:
 * `profile[given_name]=Ada`, `allowed_email_domains[]=acme.com`, `q[environments_status_in][]=up`.
 * Depth and sizes are capped so that hostile input cannot blow up the parser.
 */
export const bracketOptions: qs.IParseOptions = {
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 1_000,
  allowPrototypes: false,
  strictDepth: true,
};

export function parseBrackets(text: string): Record<string, unknown> {
  return qs.parse(text, bracketOptions) as Record<string, unknown>;
}
