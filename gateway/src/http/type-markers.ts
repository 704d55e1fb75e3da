/** The type marker the SDKs add to the objects they send (`profile[__type__]=Profile`, `"__type__": "Address"`). */
export const typeMarker = '__type__';

/**
 * The body without the SDKs' type markers, at any depth: they name the object's type, which the
 * operation already knows, and are accepted and ignored (a strict nested object would refuse them as
 * unknown fields). Bodies are depth-bounded before they get here (JSON and form parsers).
 */
export function withoutTypeMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypeMarkers);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== typeMarker)
      .map(([key, field]) => [key, withoutTypeMarkers(field)]),
  );
}
