import React from 'react';
import { useTranslation } from '../site/translation';

export interface Heading {
  id: string | null;
  value: string;
  depth: number;
}

/** Table of contents of a page: heading levels 2 and 3 (SPEC.md section 2). */
export const tocLevels = { min: 2, max: 3 } as const;

export function Toc({ headings }: { headings: Heading[] }) {
  const { t } = useTranslation();
  const items = headings.filter((heading) => heading.id && heading.depth >= tocLevels.min && heading.depth <= tocLevels.max);
  if (items.length === 0) return null;
  return (
    <nav className="toc" aria-label={t('toc.label')}>
      <p className="toc-title">{t('toc.title')}</p>
      <ul>
        {items.map((heading) => (
          <li key={heading.id} className={`toc-item toc-item--h${heading.depth}`}>
            <a href={`#${heading.id}`}>{heading.value}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
