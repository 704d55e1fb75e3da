import React, { createContext, useContext, useMemo } from 'react';
import { Link as GatsbyLink } from 'gatsby';
import { siteConfig } from './site-config';
import type { LocalesData } from './i18n';

/**
 * The site's translations in React: the page's language and its dictionary (the `locales` query of
 * the page, one language only). It replaces the browser half of gatsby-plugin-react-i18next (i18next
 * and react-i18next, about 75 KB of script on every page); the plugin still creates the pages of
 * each language (plugins/i18n-pages). Keys are dotted paths, `{{name}}` is replaced by the option of
 * that name (not escaped: React escapes), and a numeric `count` picks the `_one`/`_other` form of
 * the language's plural rules. A missing key reads as the key itself.
 */
export type TranslateOptions = Record<string, string | number>;
export type Translate = (key: string, options?: TranslateOptions) => string;

export interface PageI18n {
  language: string;
  languages: string[];
  defaultLanguage: string;
  /** The page's path without the language prefix. */
  originalPath: string;
}

interface TranslationContext extends PageI18n {
  t: Translate;
}

/** Reads the dictionaries of the page's `locales` query (one per namespace), merged. */
export function dictionaryOf(data: Partial<LocalesData> | undefined): Record<string, unknown> {
  const edges = data?.locales?.edges ?? [];
  return Object.assign({}, ...edges.map((edge) => JSON.parse(edge.node.data) as Record<string, unknown>));
}

function lookup(dictionary: Record<string, unknown>, key: string): string | undefined {
  let node: unknown = dictionary;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' ? node : undefined;
}

/** The translate function of one language over its dictionary. */
export function translator(language: string, dictionary: Record<string, unknown>): Translate {
  const plurals = new Intl.PluralRules(language);
  return (key, options) => {
    const count = options?.count;
    const form = typeof count === 'number' ? lookup(dictionary, `${key}_${plurals.select(count)}`) : undefined;
    const text = form ?? lookup(dictionary, key) ?? key;
    if (!options) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in options ? String(options[name]) : match));
  };
}

const fallback: TranslationContext = {
  language: siteConfig.defaultLanguage,
  languages: [...siteConfig.languages],
  defaultLanguage: siteConfig.defaultLanguage,
  originalPath: '/',
  t: (key) => key,
};

const Context = createContext<TranslationContext>(fallback);

export function TranslationProvider({
  i18n,
  data,
  children,
}: {
  i18n: PageI18n;
  data: Partial<LocalesData> | undefined;
  children: React.ReactNode;
}) {
  const { language, languages, defaultLanguage, originalPath } = i18n;
  const value = useMemo(
    () => ({ language, languages, defaultLanguage, originalPath, t: translator(language, dictionaryOf(data)) }),
    [language, languages, defaultLanguage, originalPath, data],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** The page's language, languages, path without prefix and translate function. */
export function useI18next(): TranslationContext {
  return useContext(Context);
}

/** The translate function and the page's language (`i18n.language`). */
export function useTranslation(): { t: Translate; i18n: { language: string } } {
  const { t, language } = useContext(Context);
  return useMemo(() => ({ t, i18n: { language } }), [t, language]);
}

export interface LocalizedLinkProps extends Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  /** The language of the target; the page's language when absent. */
  language?: string;
  activeClassName?: string;
  partiallyActive?: boolean;
}

/** A Gatsby Link whose `to` (a path without language prefix) is prefixed with the language. */
export function Link({ language, to, ...rest }: LocalizedLinkProps) {
  const context = useContext(Context);
  const target = language ?? context.language;
  const prefix = target === context.defaultLanguage ? '' : `/${target}`;
  return <GatsbyLink {...rest} to={`${prefix}${to}`} hrefLang={target} />;
}
