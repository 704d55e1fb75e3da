import { languageOfAcceptLanguage } from './accept-language';

describe('the language of a browser page (Accept-Language)', () => {
  it.each([
    ['fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', 'fr'],
    ['en-US,en;q=0.9,fr;q=0.8', 'en'],
    ['de-DE, fr;q=0.5, en;q=0.4', 'fr'],
    ['en;q=0.3, fr-CA;q=0.8', 'fr'],
    ['fr;q=0.5, en;q=0.5', 'fr'],
    ['en;q=0.5, fr;q=0.5', 'en'],
    ['FR-be', 'fr'],
    ['fr;q=0, en', 'en'],
    ['fr;q=0', 'en'],
    ['de, *;q=0.1', 'en'],
    ['en;q=0, *', 'fr'],
    ['de-DE, es', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    [';q=1, ,fr', 'fr'],
  ])('%s → %s', (header, language) => {
    expect(languageOfAcceptLanguage(header)).toBe(language);
  });
});
