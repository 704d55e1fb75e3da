import { z } from '../zod';

/**
 * How deep a JSON value nests: 0 for a scalar, 1 for an object or array of scalars, and so on.
 * Iterative, and it stops looking once past `limit`: a value nested thousands of levels deep
 * costs no stack and no more than `limit` levels of work per branch.
 */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

export interface FreeFormBounds {
  /** Levels of objects and arrays, the field's own object being the first. */
  maxDepth: number;
  /** Bytes of the value serialized as JSON (UTF-8). */
  maxBytes: number;
}

const encoder = new TextEncoder();

/** The field error of a free-form value outside its bounds, or null. */
export function freeFormProblem(value: unknown, { maxDepth, maxBytes }: FreeFormBounds): string | null {
  if (jsonDepth(value, maxDepth) > maxDepth) return `must be nested at most ${maxDepth} levels deep`;
  if (encoder.encode(JSON.stringify(value)).length > maxBytes) return `must be at most ${maxBytes} bytes as JSON`;
  return null;
}

/**
 * A JSON object whose shape the caller chooses (an SSO connection's `onboarding`, a SCIM
 * resource, the data a sign-in recorded), bounded in depth and size so that it can be stored,
 * sent between services and projected into any read model (MongoDB refuses documents nested
 * over 100 levels; a copy of one nested thousands of levels deep overflows the stack).
 */
export function freeFormObjectSchema(bounds: FreeFormBounds) {
  const kilobytes = Math.round(bounds.maxBytes / 1_024);
  return z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .superRefine((value, context) => {
      const problem = freeFormProblem(value, bounds);
      if (problem) context.addIssue({ code: 'custom', message: problem, input: value });
    })
    .meta({
      description: `Any JSON object, nested at most ${bounds.maxDepth} levels deep (itself included) and at most ${kilobytes} KB as JSON`,
    });
}

/** Bounds of a free-form field an integrator fills (an SSO connection's `onboarding`). */
export const userFacingFreeFormBounds: FreeFormBounds = { maxDepth: 10, maxBytes: 16_384 };
