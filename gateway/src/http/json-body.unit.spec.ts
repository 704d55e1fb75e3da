import { jsonNestsDeeperThan } from './json-body';

describe('jsonNestsDeeperThan (JSON bodies, before parsing)', () => {
  it.each([
    ['a flat object', '{"a":1,"b":"x"}', 1, false],
    ['objects and arrays at the limit', '{"a":[{"b":[1]}]}', 4, false],
    ['one level past the limit', '{"a":[{"b":[1]}]}', 3, true],
    ['brackets inside strings', '{"a":"{{{{[[[[","b":"\\"{["}', 1, false],
    ['an escaped backslash before a closing quote', '{"a":"\\\\","b":{"c":1}}', 2, false],
    ['a scalar', '"{[{["', 0, false],
  ])('%s', (_case, text, limit, expected) => {
    expect(jsonNestsDeeperThan(text, limit)).toBe(expected);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it('refuses JSON nested a hundred thousand levels deep in one pass, without recursion', () => {
    const arrays = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const objects = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    expect(jsonNestsDeeperThan(arrays, 32)).toBe(true);
    expect(jsonNestsDeeperThan(objects, 32)).toBe(true);
    expect(jsonNestsDeeperThan(`${'['.repeat(32)}${']'.repeat(32)}`, 32)).toBe(false);
  });
});
