import { en } from './en';
import { fr } from './fr';
import type { Language, Messages } from './messages';

export type { InvitationProblem, Language, Messages } from './messages';
export { languages } from './messages';

export const messages: Record<Language, Messages> = { en, fr };

/** `?lang=` first, then the browser's preferred languages; English otherwise. */
export function chooseLanguage(requested: string | null, preferred: readonly string[]): Language {
  if (requested === 'en' || requested === 'fr') return requested;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'en' || base === 'fr') return base;
  }
  return 'en';
}

export const formatDate = (language: Language, iso: string) =>
  new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
