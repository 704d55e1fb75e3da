import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dictionaryOf, translator } from '../src/site/translation';

const locale = (language: string) => readFileSync(join(__dirname, '..', 'locales', language, 'translation.json'), 'utf8');
const data = (language: string) => ({ locales: { edges: [{ node: { ns: 'translation', data: locale(language), language } }] } });

describe('the site translations', () => {
  const fr = translator('fr', dictionaryOf(data('fr')));
  const en = translator('en', dictionaryOf(data('en')));

  it('reads dotted keys of the page language only', () => {
    expect(fr('landing.cards.sso.title')).toBe('Authentification unique (SSO)');
    expect(en('landing.cards.sso.title')).toBe('Single sign-on');
  });

  it('replaces {{name}} by the option of that name, unescaped', () => {
    expect(fr('search.none', { query: '<b>&' })).toBe('Aucun résultat pour « <b>& »');
    expect(en('footer.copyright', { year: 2025 })).toBe('Copyright © 2025 Sesame contributors. Apache-2.0 licensed.');
  });

  it("picks the plural form of the language's rules (0 is singular in French, plural in English)", () => {
    expect(fr('search.results', { count: 0 })).toBe('0 résultat');
    expect(fr('search.results', { count: 1 })).toBe('1 résultat');
    expect(fr('search.results', { count: 3 })).toBe('3 résultats');
    expect(en('search.results', { count: 0 })).toBe('0 results');
    expect(en('search.results', { count: 1 })).toBe('1 result');
    expect(en('blog.taggedWith', { count: 2, tag: 'sso' })).toBe('2 posts tagged with "sso"');
  });

  it('answers the key itself for a missing key or a key naming a group', () => {
    expect(fr('landing.missing')).toBe('landing.missing');
    expect(fr('landing.cards')).toBe('landing.cards');
    expect(translator('fr', dictionaryOf(undefined))('search.open')).toBe('search.open');
  });
});
