import type { JsonValue } from './types';

const variablePattern = /\{\{\s*([a-z0-9_]+)\s*\}\}/g;

/** Names of the `{{variables}}` a value uses. */
export function variablesOf(value: JsonValue | Record<string, unknown> | undefined): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') for (const match of node.matchAll(variablePattern)) names.add(match[1]!);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(value);
  return [...names];
}

/** Replaces `{{name}}` in every string of a value. Unknown variables throw. */
export function substitute<T>(value: T, variables: Record<string, string>): T {
  const replace = (text: string): string =>
    text.replace(variablePattern, (_, name: string) => {
      const resolved = variables[name];
      if (resolved === undefined) throw new Error(`Unknown sample variable {{${name}}}`);
      return resolved;
    });
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') return replace(node);
    if (Array.isArray(node)) return node.map(visit);
    if (node && typeof node === 'object')
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, visit(child)]));
    return node;
  };
  return visit(value) as T;
}

/** Reads a dotted path (`data.0.domain`) in a JSON value. */
export function valueAt(value: unknown, path: string): unknown {
  let node: unknown = value;
  for (const segment of path.split('.')) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (node && typeof node === 'object') node = (node as Record<string, unknown>)[segment];
    else return undefined;
  }
  return node;
}

/** Fills an operation's path template (`/api/v2/organizations/{org_domain}`). */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

/** Query string in the bracket notation of the API; lists repeat their key. */
export function queryString(query: Record<string, string | string[]> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const item of [value].flat()) search.append(key, item);
  const text = search.toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
  return text ? `?${text}` : '';
}

export function parseOperation(operation: string): { method: string; path: string } {
  const match = /^(GET|POST|PUT|DELETE|PATCH) (\/\S*)$/.exec(operation);
  if (!match) throw new Error(`Invalid sample operation "${operation}": expected "METHOD /path"`);
  return { method: match[1]!, path: match[2]! };
}
