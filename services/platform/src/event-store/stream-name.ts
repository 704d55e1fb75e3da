/**
 * Stream names are `<category>-<id>` (DESIGN.md section 3): `organization-acme`, `user-<uuid>`,
 * `unique-userEmail:acme:sandbox:ada@acme.com`. The category is letters and digits only.
 */
export interface StreamName {
  category: string;
  id: string;
}

const categoryPattern = /^[a-zA-Z][a-zA-Z0-9]*$/;

export function streamName(category: string, id: string): string {
  if (!categoryPattern.test(category)) throw new Error(`Invalid stream category: ${category}`);
  if (id.length === 0) throw new Error('A stream id cannot be empty');
  return `${category}-${id}`;
}

export function parseStreamName(stream: string): StreamName {
  const dash = stream.indexOf('-');
  const category = dash > 0 ? stream.slice(0, dash) : '';
  const id = dash > 0 ? stream.slice(dash + 1) : '';
  if (!categoryPattern.test(category) || id.length === 0) throw new Error(`Invalid stream name: ${stream}`);
  return { category, id };
}

/**
 * Encodes a stream id as one NATS subject token: letters, digits, `_` and `-` stay; every other
 * UTF-8 byte becomes `~HH`. Reversible and readable for the usual ids (uuids, slugs).
 */
export function encodeSubjectToken(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(char) ? char : `~${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

export function decodeSubjectToken(token: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < token.length; i++) {
    if (token[i] === '~') {
      bytes.push(parseInt(token.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(token.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}
