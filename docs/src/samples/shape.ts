import type { JsonValue } from './types';
import { valueAt } from './template';

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Differences between a documented body and an actual one: the same keys at every level,
 * the same JSON types (a `null` on either side accepts the other), every array item shaped like
 * the first documented item, and exact values at the `exact` paths.
 */
export function compareShape(documented: JsonValue, actual: unknown, exact: string[] = []): string[] {
  const problems: string[] = [];
  const visit = (doc: unknown, got: unknown, path: string): void => {
    const at = path || '(body)';
    if (doc === null || got === null) return;
    if (kind(doc) !== kind(got)) {
      problems.push(`${at}: documented ${kind(doc)}, got ${kind(got)}`);
      return;
    }
    if (Array.isArray(doc)) {
      if (doc.length > 0) (got as unknown[]).forEach((item, index) => visit(doc[0], item, `${path}.${index}`.replace(/^\./, '')));
      return;
    }
    if (doc && typeof doc === 'object') {
      const docObject = doc as Record<string, unknown>;
      const gotObject = got as Record<string, unknown>;
      for (const key of Object.keys(docObject)) {
        const child = path ? `${path}.${key}` : key;
        if (!(key in gotObject)) problems.push(`${child}: documented but missing from the response`);
        else visit(docObject[key], gotObject[key], child);
      }
      for (const key of Object.keys(gotObject))
        if (!(key in docObject)) problems.push(`${path ? `${path}.${key}` : key}: returned but not documented`);
    }
  };
  visit(documented, actual, '');
  for (const path of exact) {
    const want = valueAt(documented, path);
    const got = valueAt(actual, path);
    if (JSON.stringify(want) !== JSON.stringify(got))
      problems.push(`${path}: documented ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
  return problems;
}
