import type { RpcMeta, RpcReply } from '@sesame/contracts';
import { escapeHtml, languageOfAcceptLanguage } from '@sesame/platform';
import { pageMessageText, pageTexts } from './error-page-texts';
import type { PageMessage } from './error-page-texts';

/** A 302 for the browser. */
export const redirectTo = (location: string): RpcReply<string> => ({
  ok: true,
  status: 302,
  body: '',
  headers: { location, 'cache-control': 'no-store' },
});

/** The redirect URI with these query parameters added. */
export function withQuery(url: string, parameters: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
  return target.toString();
}

/**
 * A plain HTML page telling the user the sign-in did not work, in the browser's language
 * (`Accept-Language`: English or French), with the reference an operator finds in the logs. No
 * stack trace, no detail an attacker could use beyond the message.
 */
export function errorPage(
  message: PageMessage,
  meta: Pick<RpcMeta, 'correlationId' | 'acceptLanguage'>,
  status = 400,
): RpcReply<string> {
  const language = languageOfAcceptLanguage(meta.acceptLanguage);
  const texts = pageTexts[language];
  const body = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(texts.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2933}code{background:#eef;padding:0 .25rem}</style>
</head><body><h1>${escapeHtml(texts.title)}</h1><p>${escapeHtml(pageMessageText(texts, message))}</p>
<p>${escapeHtml(texts.retry[0])}<code>${escapeHtml(meta.correlationId)}</code>${escapeHtml(texts.retry[1])}</p>
</body></html>`;
  return {
    ok: true,
    status,
    body,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-language': language,
      vary: 'Accept-Language',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  };
}
