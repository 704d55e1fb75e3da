import { channelParts, messageCatalogue, messageLanguages } from './message-catalogue';
import type { MessageLanguage, MessageName } from './message-catalogue';
import { placeholderPattern, templateOf } from './message-templates';
import type { MessageTemplates } from './message-templates';

/** Who reads the message: the organization's `locale` and `timezone` (either may be unset). */
export interface MessageAudience {
  locale: string | null | undefined;
  timezone: string | null | undefined;
}

/** A value: text as it is, a date in the reader's language and time zone, a duration in words. */
export type MessageValue = string | Date | { durationMs: number };
export type MessageValues<N extends MessageName> = Record<(typeof messageCatalogue)[N]['placeholders'][number], MessageValue>;

export interface RenderedMessage {
  language: MessageLanguage;
  subject?: string;
  text: string;
  html?: string;
}

/** How the reader's language and time zone are written, resolved from the audience. */
export interface Reader {
  language: MessageLanguage;
  /** The locale dates and numbers are formatted in: the organization's own when its language is one we write. */
  formatLocale: string;
  timeZone: string;
}

/** `fr-CA` reads French formatted the Canadian way; `de`, an invalid or no locale reads English; no time zone reads UTC. */
export function readerOf(audience: MessageAudience): Reader {
  const canonical = canonicalLocale(audience.locale);
  const base = canonical?.split('-')[0]?.toLowerCase();
  const language = messageLanguages.find((candidate) => candidate === base) ?? 'en';
  return {
    language,
    formatLocale: language === base ? (canonical as string) : 'en',
    timeZone: validTimeZone(audience.timezone) ?? 'UTC',
  };
}

/**
 * The message `name` in the reader's language: every `{{placeholder}}` replaced by its value, as
 * is in the subject and text, HTML-escaped in the HTML part.
 */
export function renderMessage<N extends MessageName>(
  templates: MessageTemplates,
  name: N,
  audience: MessageAudience,
  values: MessageValues<N>,
): RenderedMessage {
  const reader = readerOf(audience);
  const rendered: RenderedMessage = { language: reader.language, text: '' };
  for (const part of channelParts[messageCatalogue[name].channel]) {
    const template = templateOf(templates, reader.language, name, part);
    if (template === undefined) throw new Error(`no ${part} template for the message ${name} in ${reader.language}`);
    const escape = part === 'html' ? escapeHtml : (text: string) => text;
    rendered[part] = template.replace(placeholderPattern, (_whole, placeholder: string) => {
      const value = (values as Record<string, MessageValue | undefined>)[placeholder];
      if (value === undefined) throw new Error(`the message ${name} needs a value for {{${placeholder}}}`);
      return escape(formatValue(value, reader));
    });
  }
  return rendered;
}

export function formatValue(value: MessageValue, reader: Reader): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return formatDate(value, reader);
  return formatDuration(value.durationMs, reader.formatLocale);
}

/**
 * Intl writes no-break spaces (`1 heure`, `14 h 30`): plain spaces here, as a text message
 * with one would leave the GSM alphabet and hold half as many characters.
 */
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** `November 26, 2026 at 3:30 PM UTC` / `26 novembre 2026 à 16:30 UTC+1`: the reader's words and clock. */
export function formatDate(date: Date, reader: Pick<Reader, 'formatLocale' | 'timeZone'>): string {
  const formatted = new Intl.DateTimeFormat(reader.formatLocale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: reader.timeZone,
    timeZoneName: 'short',
  }).format(date);
  return plainSpaces(formatted);
}

/** `3600000` → `1 hour` / `1 heure`; `1800000` → `30 minutes`; `90000` → `90 seconds` / `90 secondes`. */
export function formatDuration(ms: number, locale: string): string {
  const seconds = Math.round(ms / 1_000);
  const [count, unit] =
    seconds % 3_600 === 0 ? [seconds / 3_600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return plainSpaces(new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(count));
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => htmlEntities[char] as string);

function canonicalLocale(locale: string | null | undefined): string | null {
  if (!locale) return null;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? null;
  } catch {
    return null;
  }
}

function validTimeZone(timeZone: string | null | undefined): string | null {
  if (!timeZone) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return null;
  }
}
