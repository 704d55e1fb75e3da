import { messageLanguages } from './message-catalogue';
import type { MessageLanguage } from './message-catalogue';

interface LanguageRange {
  /** `fr` for `fr-CH`, `*` for any. */
  base: string;
  q: number;
  index: number;
}

/**
 * The language a browser page speaks, from the request's `Accept-Language` header
 * (`fr-CH, fr;q=0.9, en;q=0.8`): the supported language the browser weighs most, ties in the
 * header's order; `q=0` excludes a language, `*` stands for any other. English otherwise.
 */
export function languageOfAcceptLanguage(header: string | null | undefined): MessageLanguage {
  const ranges = languageRanges(header ?? '');
  const excluded = new Set(ranges.filter((range) => range.q === 0).map((range) => range.base));
  const wanted = ranges.filter((range) => range.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of wanted) {
    const language = messageLanguages.find((candidate) =>
      range.base === '*' ? !excluded.has(candidate) : candidate === range.base,
    );
    if (language) return language;
  }
  return 'en';
}

function languageRanges(header: string): LanguageRange[] {
  return header.split(',').flatMap((entry, index) => {
    const [range = '', ...parameters] = entry.split(';');
    const base = range.trim().toLowerCase().split('-')[0] as string;
    const q = parameters.map((parameter) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter)?.[1]).find(Boolean);
    return base ? [{ base, q: q === undefined ? 1 : Number(q), index }] : [];
  });
}
