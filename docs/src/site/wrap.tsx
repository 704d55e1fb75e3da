import React from 'react';
import type { WrapPageElementBrowserArgs } from 'gatsby';
import { ErrorBoundary } from '../components/ErrorBoundary';

/** Crash page texts: this boundary sits outside the i18n provider, so it carries its own. */
export const crashTexts: Record<string, { title: string; retry: string }> = {
  en: { title: 'This page crashed.', retry: 'Try again' },
  fr: { title: 'Cette page a planté.', retry: 'Réessayer' },
};

export function wrapPageElement({ element, props }: Pick<WrapPageElementBrowserArgs, 'element' | 'props'>) {
  const language = (props.pageContext as { language?: string }).language ?? 'en';
  const texts = crashTexts[language] ?? crashTexts.en!;
  // Keyed by path: navigating away from a crashed page renders the next page normally.
  return (
    <ErrorBoundary key={props.location.pathname} title={texts.title} retry={texts.retry}>
      {element}
    </ErrorBoundary>
  );
}
