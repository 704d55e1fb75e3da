/**
 * The guides' full-text search: an inverted index built once per language at build time
 * (gatsby-node writes public/search/<language>.json) and queried in the browser, offline.
 * One entry per section of a guide (the text under an h2 or h3, or the page's introduction), so
 * that a result links to the heading anchor where the words are.
 */

/** One searchable section: its address (with the heading anchor), the page title and heading. */
export interface SearchEntry {
  /** Address of the section, language prefix and `#anchor` included. */
  url: string;
  title: string;
  heading: string | null;
  /** The start of the section's text, shown under the result. */
  excerpt: string;
}

export interface SearchIndex {
  language: string;
  entries: SearchEntry[];
  /** Term → `[entry, weight]` pairs, flattened: `[entry0, weight0, entry1, weight1, …]`. */
  terms: Record<string, number[]>;
}

export interface SearchPage {
  path: string;
  title: string;
  /** The page's rendered HTML, headings with their `id`. */
  html: string;
}

const excerptLength = 160;
/** Words in titles and headings count more than words in the text. */
const weights = { title: 8, heading: 4, text: 1 };

/** Lower-case words without diacritics: `Sécurité` and `securite` are the same term. */
export function tokenize(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  ).filter((word) => word.length > 1 || /[0-9]/.test(word));
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** The text of an HTML fragment, code blocks' contents dropped (they are samples, not prose). */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style|pre)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#?[a-z0-9]+);/gi, (all, name: string) =>
      name.startsWith('#x') ? String.fromCodePoint(parseInt(name.slice(2), 16)) : (entities[name.toLowerCase()] ?? all),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** A page's sections: its introduction, then one per h2/h3 (its anchor is the heading's `id`). */
export function sections(html: string): Array<{ anchor: string | null; heading: string | null; text: string }> {
  const parts = html.split(/(?=<h[23][^>]*\bid=")/i);
  return parts.map((part) => {
    const heading = /^<h[23][^>]*\bid="([^"]+)"[^>]*>([\s\S]*?)<\/h[23]>/i.exec(part);
    return {
      anchor: heading ? heading[1]! : null,
      heading: heading ? htmlText(heading[2]!) : null,
      text: htmlText(heading ? part.slice(heading[0].length) : part),
    };
  });
}

export function buildSearchIndex(language: string, pages: SearchPage[]): SearchIndex {
  const entries: SearchEntry[] = [];
  const terms: Record<string, number[]> = {};
  const add = (words: string[], weight: number, counts: Map<string, number>) => {
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + weight);
  };
  for (const page of pages) {
    for (const section of sections(page.html)) {
      if (!section.heading && !section.text) continue;
      const entry = entries.length;
      entries.push({
        url: section.anchor ? `${page.path}#${section.anchor}` : page.path,
        title: page.title,
        heading: section.heading,
        excerpt: section.text.length > excerptLength ? `${section.text.slice(0, excerptLength).trimEnd()}…` : section.text,
      });
      const counts = new Map<string, number>();
      add(tokenize(page.title), weights.title, counts);
      add(tokenize(section.heading ?? ''), weights.heading, counts);
      add(tokenize(section.text), weights.text, counts);
      for (const [word, count] of counts) (terms[word] ??= []).push(entry, count);
    }
  }
  return { language, entries, terms };
}

/**
 * The sections holding every word of the query, best first. The last word also matches as a
 * prefix (the reader is still typing it).
 */
export function search(index: SearchIndex, query: string, limit = 8): SearchEntry[] {
  const words = tokenize(query);
  if (words.length === 0) return [];
  let scores: Map<number, number> | null = null;
  words.forEach((word, position) => {
    const last = position === words.length - 1;
    const matching = last ? Object.keys(index.terms).filter((term) => term.startsWith(word)) : [word];
    const found = new Map<number, number>();
    for (const term of matching) {
      const postings = index.terms[term] ?? [];
      const exact = term === word ? 2 : 1;
      for (let i = 0; i < postings.length; i += 2)
        found.set(postings[i]!, (found.get(postings[i]!) ?? 0) + postings[i + 1]! * exact);
    }
    const previous: Map<number, number> | null = scores;
    scores = new Map();
    for (const [entry, score] of found)
      if (!previous || previous.has(entry)) scores.set(entry, score + (previous?.get(entry) ?? 0));
  });
  return [...(scores ?? new Map<number, number>()).entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([entry]) => index.entries[entry]!);
}
