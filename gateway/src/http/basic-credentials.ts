import { oauthError } from '@sesame/contracts';
import { ApiError } from './api-error';

/**
 * RFC 6749 section 2.3.1: client credentials may come as HTTP Basic (form-encoded, then base64);
 * they become `client_id` and `client_secret` of the body the service receives. A malformed
 * Basic header is `invalid_client`; Basic plus `client_secret` in the body, or a body
 * `client_id` naming another client, is `invalid_request` (one authentication method only).
 */
export function withBasicCredentials(body: unknown, authorization: string | undefined): unknown {
  if (!/^Basic(\s|$)/i.test(authorization ?? '') || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(authorization ?? '');
  const decoded = match ? Buffer.from(match[1] as string, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new ApiError(oauthError('invalid_client', 'Malformed HTTP Basic client credentials'));
  const fields = body as Record<string, unknown>;
  const clientId = formDecode(decoded.slice(0, colon));
  if (fields.client_secret !== undefined || (fields.client_id !== undefined && fields.client_id !== clientId))
    throw new ApiError(
      oauthError('invalid_request', 'Send the client credentials once: HTTP Basic or client_id and client_secret in the body'),
    );
  return { ...fields, client_id: clientId, client_secret: formDecode(decoded.slice(colon + 1)) };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
