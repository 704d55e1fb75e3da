import React, { useEffect, useState } from 'react';
import { navigate } from 'gatsby';
import { useI18next } from '../site/translation';
import { search, type SearchEntry, type SearchIndex } from '../search/search-index';

const indexes = new Map<string, Promise<SearchIndex>>();

/** The language's index, built with the site (public/search/<language>.json), fetched once. */
function loadIndex(language: string): Promise<SearchIndex> {
  let index = indexes.get(language);
  if (!index) {
    index = fetch(`/search/${language}.json`).then((response) => {
      if (!response.ok) throw new Error(`search index: ${response.status}`);
      return response.json() as Promise<SearchIndex>;
    });
    index.catch(() => indexes.delete(language));
    indexes.set(language, index);
  }
  return index;
}

/** The search dialog: a combobox over the guides of the page's language (loaded on first open). */
export function SearchDialog({ onClose }: { onClose: () => void }) {
  const { t, language } = useI18next();
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState<SearchIndex | null>(null);
  const [failed, setFailed] = useState(false);
  const [active, setActive] = useState(0);
  useEffect(() => {
    loadIndex(language).then(setIndex, () => setFailed(true));
  }, [language]);
  const results = index ? search(index, query) : [];
  useEffect(() => setActive(0), [query]);
  const go = (entry: SearchEntry) => {
    onClose();
    void navigate(entry.url);
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') onClose();
    else if (event.key === 'Tab') event.preventDefault();
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (results.length) setActive((active + step + results.length) % results.length);
    } else if (event.key === 'Enter' && results[active]) {
      event.preventDefault();
      go(results[active]);
    }
  };
  let status = '';
  if (failed) status = t('search.failed');
  else if (!index) status = t('search.loading');
  else if (query.trim()) status = results.length ? t('search.results', { count: results.length }) : t('search.none', { query });
  return (
    <div className="search-backdrop" role="presentation" onClick={onClose}>
      <div
        className="search-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t('search.label')}
        onClick={(event) => event.stopPropagation()}
      >
        <input
          className="search-input"
          type="search"
          role="combobox"
          aria-label={t('search.label')}
          aria-expanded={results.length > 0}
          aria-controls="search-results"
          aria-autocomplete="list"
          aria-activedescendant={results.length ? `search-result-${active}` : undefined}
          placeholder={t('search.placeholder')}
          autoFocus
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <p className="search-status" role="status">
          {status}
        </p>
        <ul id="search-results" className="search-results" role="listbox" aria-label={t('search.resultsLabel')}>
          {results.map((entry, position) => (
            <li
              key={entry.url}
              id={`search-result-${position}`}
              role="option"
              aria-selected={position === active}
              className={`search-result ${position === active ? 'search-result--active' : ''}`}
              onMouseEnter={() => setActive(position)}
              onClick={() => go(entry)}
            >
              <span className="search-result-title">
                {entry.title}
                {entry.heading ? <span className="search-result-heading"> › {entry.heading}</span> : null}
              </span>
              <span className="search-result-excerpt">{entry.excerpt}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
