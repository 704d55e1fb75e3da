import React from 'react';
import type { WrapPageElementBrowserArgs } from 'gatsby';
import { ErrorBoundary } from '../components/ErrorBoundary';
import type { LocalesData } from './i18n';
import { TranslationProvider, type PageI18n } from './translation';

/** Crash page texts: this boundary sits outside the translations' provider, so it carries its own. */
export const crashTexts: Record<string, { title: string; retry: string }> = {
  en: { title: 'This page crashed.', retry: 'Try again' },
  fr: { title: 'Cette page a planté.', retry: 'Réessayer' },
};

export function wrapPageElement({ element, props }: Pick<WrapPageElementBrowserArgs, 'element' | 'props'>) {
  const context = props.pageContext as { language?: string; i18n?: PageI18n };
  const language = context.language ?? 'en';
  const texts = crashTexts[language] ?? crashTexts.en!;
  // Keyed by path: navigating away from a crashed page renders the next page normally.
  return (
    <ErrorBoundary key={props.location.pathname} title={texts.title} retry={texts.retry}>
      {context.i18n ? (
        <TranslationProvider i18n={context.i18n} data={props.data as Partial<LocalesData> | undefined}>
          {element}
        </TranslationProvider>
      ) : (
        element
      )}
    </ErrorBoundary>
  );
}
