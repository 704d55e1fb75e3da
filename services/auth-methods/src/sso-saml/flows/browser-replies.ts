import type { RpcReply } from '@sesame/contracts';

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

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
 * A plain HTML page telling the user the sign-in did not work, with the reference an operator
 * finds in the logs. No stack trace, no detail an attacker could use beyond the message.
 */
export function errorPage(message: string, correlationId: string, status = 400): RpcReply<string> {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in failed</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2933}code{background:#eef;padding:0 .25rem}</style>
</head><body><h1>Sign-in failed</h1><p>${escapeHtml(message)}</p>
<p>Please go back to the application and try again. If this keeps happening, give your administrator this reference: <code>${escapeHtml(correlationId)}</code>.</p>
</body></html>`;
  return {
    ok: true,
    status,
    body,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  };
}
