import React from 'react';
import { siteConfig } from '../site/site-config';
import { pathInLanguage } from '../site/i18n';

interface SeoProps {
  title: string;
  description?: string;
  language: string;
  pathname: string;
  noindex?: boolean;
}

/** Contents of `<head>` for every page (Gatsby Head API). */
export function Seo({ title, description, language, pathname, noindex }: SeoProps) {
  const fullTitle = title.includes(siteConfig.title) ? title : `${title} | ${siteConfig.title}`;
  return (
    <>
      <html lang={language} />
      <title>{fullTitle}</title>
      {description ? <meta name="description" content={description} /> : null}
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      {noindex ? <meta name="robots" content="noindex, nofollow" /> : null}
      <link rel="canonical" href={`${siteConfig.siteUrl}${pathname}`} />
      {noindex
        ? null
        : siteConfig.languages.map((lang) => (
            <link key={lang} rel="alternate" hrefLang={lang} href={`${siteConfig.siteUrl}${pathInLanguage(pathname, lang)}`} />
          ))}
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    </>
  );
}
