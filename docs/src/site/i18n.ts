import { siteConfig, type Language } from './site-config';

/** Shape of the `locales` query every page makes (gatsby-plugin-react-i18next). */
export interface LocalesData {
  locales: { edges: { node: { ns: string; data: string; language: string } }[] };
}

export const localesFragment = 'locales: allLocale(filter: { language: { eq: $language } })';

/** Reads a translation outside React's i18n context (the Head API has none). */
export function translate(data: LocalesData | undefined, key: string): string {
  for (const edge of data?.locales.edges ?? []) {
    let node: unknown = JSON.parse(edge.node.data);
    for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    if (typeof node === 'string') return node;
  }
  return key;
}

/** Path of the same page in another language: `/fr/password/` and `/password/` map to each other. */
export function pathInLanguage(pathname: string, language: string): string {
  const prefix = new RegExp(`^/(${siteConfig.languages.join('|')})(?=/|$)`);
  const bare = pathname.replace(prefix, '') || '/';
  return language === siteConfig.defaultLanguage ? bare : `/${language}${bare === '/' ? '/' : bare}`;
}

export function isLanguage(value: string): value is Language {
  return (siteConfig.languages as readonly string[]).includes(value);
}
