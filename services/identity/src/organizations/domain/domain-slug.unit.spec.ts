import { domainFromName } from './domain-slug';

describe('domainFromName', () => {
  it.each([
    ['Acme Corp', 'acme-corp'],
    ['  Acme   Corp  ', 'acme-corp'],
    ['ACME, Corp. & Co', 'acme-corp-co'],
    ['Café Déjà Vu', 'cafe-deja-vu'],
    ['Zoë Müller GmbH', 'zoe-muller-gmbh'],
    ['42 Labs', '42-labs'],
    ['---a---', 'a'],
    ['a'.repeat(80), 'a'.repeat(63)],
    [`${'a'.repeat(62)} b`, 'a'.repeat(62)],
  ])('%s → %s', (name, domain) => expect(domainFromName(name)).toBe(domain));

  it.each(['!!!', '   ', '日本', ''])('has no domain for %j', (name) => expect(domainFromName(name)).toBeNull());
});
