import { buildSearchIndex, htmlText, search, sections, tokenize } from '../src/search/search-index';

const pages = [
  {
    path: '/fr/password/',
    title: 'Mot de passe',
    html:
      '<p>Les utilisateurs se connectent avec un <strong>mot de passe</strong>.</p>' +
      '<h2 id="securite">Sécurité <a class="anchor" href="#securite"><svg></svg></a></h2>' +
      '<p>Les tentatives sont limitées &amp; journalisées.</p><pre><code>curl https://example</code></pre>' +
      '<h3 id="reinitialiser">Réinitialiser</h3><p>Un lien de réinitialisation est envoyé par courriel.</p>',
  },
  { path: '/fr/magic-link/', title: 'Lien magique', html: '<h2 id="envoi">Envoi</h2><p>Le lien expire après 15 minutes.</p>' },
];

describe('search index of the guides', () => {
  it('tokenizes without case or diacritics', () => {
    expect(tokenize('Sécurité: RÉINITIALISER le mot-de-passe, 2 fois')).toEqual([
      'securite',
      'reinitialiser',
      'le',
      'mot',
      'de',
      'passe',
      '2',
      'fois',
    ]);
  });

  it('splits a page into its introduction and one section per h2/h3, code blocks left out', () => {
    expect(sections(pages[0]!.html)).toEqual([
      { anchor: null, heading: null, text: 'Les utilisateurs se connectent avec un mot de passe .' },
      { anchor: 'securite', heading: 'Sécurité', text: 'Les tentatives sont limitées & journalisées.' },
      { anchor: 'reinitialiser', heading: 'Réinitialiser', text: 'Un lien de réinitialisation est envoyé par courriel.' },
    ]);
    expect(htmlText('<p>a&nbsp;&lt;b&gt; &#x27;c&#x27;</p>')).toBe("a <b> 'c'");
  });

  it('finds the section holding every word, links to its anchor, and ranks headings first', () => {
    const index = buildSearchIndex('fr', pages);
    expect(index.language).toBe('fr');
    expect(search(index, 'securite').map((entry) => entry.url)).toEqual(['/fr/password/#securite']);
    expect(search(index, 'lien courriel').map((entry) => entry.url)).toEqual(['/fr/password/#reinitialiser']);
    // The last word is a prefix while the reader types it; the heading match ranks first.
    expect(search(index, 'réini').map((entry) => entry.url)).toEqual(['/fr/password/#reinitialiser']);
    expect(search(index, 'lien').map((entry) => entry.url)).toEqual(['/fr/magic-link/#envoi', '/fr/password/#reinitialiser']);
    expect(search(index, 'lien').map((entry) => [entry.title, entry.heading])).toEqual([
      ['Lien magique', 'Envoi'],
      ['Mot de passe', 'Réinitialiser'],
    ]);
  });

  it('finds nothing for unknown words, empty queries or words only in code blocks', () => {
    const index = buildSearchIndex('fr', pages);
    expect(search(index, 'kubernetes')).toEqual([]);
    expect(search(index, '  !? ')).toEqual([]);
    expect(search(index, 'curl')).toEqual([]);
    expect(search(index, 'securite kubernetes')).toEqual([]);
  });

  it('shortens long excerpts', () => {
    const index = buildSearchIndex('en', [{ path: '/a/', title: 'A', html: `<p>${'word '.repeat(100)}</p>` }]);
    expect(index.entries[0]!.excerpt.length).toBeLessThanOrEqual(161);
    expect(index.entries[0]!.excerpt.endsWith('…')).toBe(true);
  });
});
