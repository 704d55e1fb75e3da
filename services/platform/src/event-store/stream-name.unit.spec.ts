import { decodeSubjectToken, encodeSubjectToken, parseStreamName, streamName } from './stream-name';

describe('stream names', () => {
  it('builds and parses <category>-<id>, the id keeping its own dashes', () => {
    expect(streamName('organization', 'acme-corp')).toBe('organization-acme-corp');
    expect(parseStreamName('organization-acme-corp')).toEqual({ category: 'organization', id: 'acme-corp' });
  });

  it.each(['', 'nodash', '-id', 'bad category-x', 'cat-'])('refuses %j', (name) => expect(() => parseStreamName(name)).toThrow());

  it('refuses a category with other characters than letters and digits', () =>
    expect(() => streamName('user-email', 'x')).toThrow());

  it.each(['acme-corp', 'ada@acme.com', 'a.b>c*d e', 'zoë~müller', '😀', 'already~2e'])(
    'encodes %j into one safe subject token and back',
    (id) => {
      const token = encodeSubjectToken(id);
      expect(token).toMatch(/^[A-Za-z0-9_~-]+$/);
      expect(decodeSubjectToken(token)).toBe(id);
    },
  );

  it('keeps uuids and slugs readable', () =>
    expect(encodeSubjectToken('2f1f9f6e-6a5e-4b8a-9a53-2a0b5b0d5c11')).toBe('2f1f9f6e-6a5e-4b8a-9a53-2a0b5b0d5c11'));
});
