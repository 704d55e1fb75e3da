import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Operator-provided email templates for magic links (`sign_in_template_id`): files in
 * `SESAME_MAIL_TEMPLATES_DIR`, `<id>.txt` (required) and `<id>.html` (optional). The text file
 * may start with a `Subject: ...` line followed by an empty line. Placeholders `{{name}}` from
 * `templatePlaceholders` are replaced (HTML-escaped in the HTML part); any other `{{...}}` makes
 * the template invalid, so a typo is caught when the connection names it, not in a user's inbox.
 */
export const templatePlaceholders = ['link', 'expires_in_minutes', 'organization', 'email'] as const;
export type TemplateValues = Record<(typeof templatePlaceholders)[number], string>;

/** Template ids are file names without extension: no path separators, no dots. */
const templateIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const placeholderPattern = /\{\{\s*([^}]*?)\s*\}\}/g;
const subjectLine = /^Subject:[ \t]*(.*)\r?\n\r?\n?/;

export interface MailTemplate {
  subject: string | null;
  text: string;
  html: string | null;
}

export interface RenderedMail {
  subject: string | null;
  text: string;
  html?: string;
}

/** Why a template id cannot be used, or null when it can. */
export type TemplateProblem = string | null;

export class MailTemplates {
  /** `directory` unset: no template can be named. */
  constructor(private readonly directory: string | undefined) {}

  /** The problem with naming `id` in a connection (422 message), or null. */
  async problemWith(id: string): Promise<TemplateProblem> {
    if (!this.directory) return 'cannot be used: no mail template directory is configured (SESAME_MAIL_TEMPLATES_DIR)';
    const template = await this.load(id);
    if (!template) return `is not a mail template: no ${id}.txt in the mail template directory`;
    const unknown = unknownPlaceholders(template);
    return unknown.length > 0 ? `uses unknown placeholders: ${unknown.join(', ')}` : null;
  }

  /** The template `id`, or null when it does not exist (or the id is not a file name). */
  async load(id: string): Promise<MailTemplate | null> {
    if (!this.directory || !templateIdPattern.test(id)) return null;
    const text = await readOptional(join(this.directory, `${id}.txt`));
    if (text === null) return null;
    const subject = subjectLine.exec(text);
    return {
      subject: subject ? (subject[1] as string).trim() : null,
      text: subject ? text.slice(subject[0].length) : text,
      html: await readOptional(join(this.directory, `${id}.html`)),
    };
  }
}

export function unknownPlaceholders(template: MailTemplate): string[] {
  const known = new Set<string>(templatePlaceholders);
  const parts = [template.subject ?? '', template.text, template.html ?? ''];
  const names = parts.flatMap((part) => [...part.matchAll(placeholderPattern)].map((match) => match[1] as string));
  return [...new Set(names.filter((name) => !known.has(name)))];
}

/** Fills the placeholders: as they are in the subject and text, HTML-escaped in the HTML part. */
export function renderTemplate(template: MailTemplate, values: TemplateValues): RenderedMail {
  const fill = (part: string, escape: (value: string) => string) =>
    part.replace(placeholderPattern, (whole, name: string) =>
      name in values ? escape(values[name as keyof TemplateValues]) : whole,
    );
  const same = (value: string) => value;
  return {
    subject: template.subject === null ? null : fill(template.subject, same),
    text: fill(template.text, same),
    ...(template.html !== null ? { html: fill(template.html, escapeHtml) } : {}),
  };
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => htmlEntities[char] as string);

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
