/**
 * A deep copy of a read model's document: plain objects, arrays and primitives copied by hand,
 * dates as dates, anything else through `structuredClone`. The in-memory read model hands out and
 * keeps copies; `structuredClone` of each one was 17% of identity's CPU serving GET user by id
 * (two documents a read). On a user's document: structuredClone 4.0 µs, JSON round trip 3.6 µs,
 * this 0.74 µs.
 */
export function copyDocument<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) items[index] = copyDocument(value[index]);
    return items as T;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null)
    return (value instanceof Date ? new Date(value.getTime()) : structuredClone(value)) as T;
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  // Index loops over Object.keys: Object.entries' pair arrays made the copy three times slower.
  const keys = Object.keys(source);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    // An own `__proto__` (JSON.parse makes one) stays an own property, not the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: copyDocument(source[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = copyDocument(source[key]);
  }
  return copy as T;
}
