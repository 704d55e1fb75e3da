import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { channelParts, messageCatalogue, messageLanguages, partFile } from './message-catalogue';
import type { MessageLanguage, MessageName, MessagePart } from './message-catalogue';

/** The template files of every message in every language, read and checked once. */
export type MessageTemplates = ReadonlyMap<string, string>;

/** Where the templates are: beside this file, in `src/` as in `dist/` (the build copies them). */
export const defaultTemplatesDir = join(__dirname, 'templates');

export const placeholderPattern = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;
const templateKey = (language: MessageLanguage, name: MessageName, part: MessagePart) => `${language}/${name}/${part}`;

/**
 * Reads every template of the catalogue. Fails (at start, not in a user's inbox) when a file is
 * missing or uses a placeholder its message does not have.
 */
export function loadMessageTemplates(directory: string = defaultTemplatesDir): MessageTemplates {
  const templates = new Map<string, string>();
  const problems: string[] = [];
  for (const language of messageLanguages)
    for (const name of Object.keys(messageCatalogue) as MessageName[]) {
      const { channel, placeholders } = messageCatalogue[name];
      for (const part of channelParts[channel]) {
        const file = join(directory, language, partFile[part](name));
        if (!existsSync(file)) {
          problems.push(`${file} is missing`);
          continue;
        }
        const content = readFileSync(file, 'utf8').replace(/\s+$/, '');
        const known = new Set<string>(placeholders);
        const unknown = [...content.matchAll(placeholderPattern)].map((match) => match[1] as string).filter((p) => !known.has(p));
        if (unknown.length > 0) problems.push(`${file} uses unknown placeholders: ${[...new Set(unknown)].join(', ')}`);
        templates.set(templateKey(language, name, part), part === 'subject' ? content.trim() : content);
      }
    }
  if (problems.length > 0) throw new Error(`message templates in ${directory}: ${problems.join('; ')}`);
  return templates;
}

export const templateOf = (templates: MessageTemplates, language: MessageLanguage, name: MessageName, part: MessagePart) =>
  templates.get(templateKey(language, name, part));

let loaded: MessageTemplates | null = null;
/** The shipped templates, read once per process (at start: the first sender asks for them). */
export function shippedMessageTemplates(): MessageTemplates {
  loaded ??= loadMessageTemplates();
  return loaded;
}
