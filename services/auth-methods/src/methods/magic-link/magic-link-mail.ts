import { renderMessage } from '@sesame/platform';
import type { MessageAudience, MessageTemplates } from '@sesame/platform';
import { renderTemplate } from './mail-templates';
import type { MailTemplates, TemplateValues } from './mail-templates';

/** How the default email is worded: the organization's language and time zone, and when the link expires. */
export interface MagicLinkWording {
  messages: MessageTemplates;
  audience: MessageAudience;
  expiresAt: Date;
}

/**
 * The email of a magic link: the connection's template when it names one (its subject, if it has
 * none, and the default email when it is gone are in the organization's language), else the
 * default one in the organization's language.
 */
export async function magicLinkMail(
  templates: MailTemplates,
  templateId: string | null,
  values: TemplateValues,
  wording: MagicLinkWording,
): Promise<{ subject: string; text: string; html?: string }> {
  const template = templateId ? await templates.load(templateId) : null;
  const localized = renderMessage(wording.messages, 'magic-link', wording.audience, {
    organization: values.organization,
    email: values.email,
    link: values.link,
    expires_at: wording.expiresAt,
    valid_for: { durationMs: Number(values.expires_in_minutes) * 60_000 },
  });
  const subject = localized.subject as string;
  if (!template) return { subject, text: localized.text, ...(localized.html ? { html: localized.html } : {}) };
  const rendered = renderTemplate(template, values);
  return { ...rendered, subject: rendered.subject ?? subject };
}

/** `redirect_uri` with `code` (and `request_id`) added to its query. */
export function magicLinkUrl(redirectUri: string, code: string, requestId: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  url.searchParams.set('request_id', requestId);
  return url.toString();
}
