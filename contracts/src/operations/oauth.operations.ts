import { z } from '../zod';
import { jwksSchema, tokenSchema } from '../entities/misc.schema';
import { codeVerifierPattern } from '../common/pkce.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { perIp } from './rate-limits';
import { oauthExamples } from './oauth.examples';

export const grantTypes = ['client_credentials', 'authorization_code', 'refresh_token', 'relay'] as const;

/** A request without `grant_type` that carries a `code` is the exchange of that code. */
function readGrantType<Body extends { grant_type?: string; code?: string }>(body: Body, context: z.RefinementCtx) {
  const grantType = body.grant_type ?? (body.code !== undefined ? 'authorization_code' : undefined);
  if (grantType === undefined) {
    context.addIssue({ code: 'custom', path: ['grant_type'], message: "can't be blank" });
    return z.NEVER;
  }
  return { ...body, grant_type: grantType };
}

export const tokenRequestSchema = z
  .object({
    grant_type: z.string().min(1).optional().meta({
      description:
        "Required, except with a `code`: then it is read as `authorization_code` (the code exchange of Cryptr's Kotlin SDK leaves it out)",
    }),
    client_id: z.string().optional().meta({
      description:
        'The API key (client) id; also from HTTP Basic. Required with a user grant when the client does not authenticate',
    }),
    client_secret: z.string().optional().meta({
      description:
        'The API key secret (RFC 6749 section 2.3.1): in the body, or HTTP Basic `base64(client_id:client_secret)`, not both',
    }),
    audience: z.string().optional().meta({
      description:
        '`client_credentials`: the API audience (`SESAME_API_AUDIENCE`, by default the public URL), the only one API-key tokens are issued for; another answers 400 `invalid_target` (RFC 8707). Leave it out',
    }),
    scope: z.string().optional(),
    code: z.string().optional(),
    redirect_uri: z.string().optional(),
    refresh_token: z.string().optional(),
    nonce: z.string().optional(),
    code_verifier: z
      .string()
      .regex(codeVerifierPattern, 'must be 43 to 128 characters among A-Z a-z 0-9 - . _ ~ (RFC 7636)')
      .optional()
      .meta({ description: 'PKCE: the secret whose S256 hash was the `code_challenge` of the sign-in' }),
  })
  .transform(readGrantType)
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const issueToken = defineOperation({
  operationId: 'issueToken',
  method: 'post',
  path: '/oauth/token',
  aliases: ['/api/v2/oauth/token'],
  documentAliases: true,
  tag: 'Token',
  summary: 'Get tokens',
  description:
    "OAuth 2.0 token endpoint (also served at `/api/v2/oauth/token`). `client_credentials` exchanges an API key for an access token, for the API's own audience only (another `audience` answers 400 `invalid_target`). `authorization_code` exchanges the one-time `code` a sign-in answered (password, magic link, TOTP, SSO) for the user's `access_token`, `id_token` and `refresh_token`; the code works once and expires after 120 seconds by default. The client authenticates with its API key (`client_secret` in the body, or HTTP Basic `base64(client_id:client_secret)`, not both), the key of the code's environment that started the sign-in; a public client (a browser or mobile app) instead sends `client_id` and the PKCE `code_verifier` of the `code_challenge` (S256) it gave the sign-in. A code issued with a `code_challenge` always needs its `code_verifier`. `refresh_token` exchanges a refresh token for new tokens and a new refresh token; a refresh token obtained with client authentication needs the same client authentication, one obtained with PKCE alone is refreshed by rotation only; presenting a refresh token that was already exchanged revokes every token of that sign-in. `relay` exchanges a relay code; the partner authenticates with an API key of the relay's environment, and the tokens end with the relay's `session_duration_minutes`. For `authorization_code` only, an API key may instead authenticate with its API access token as `Authorization: Bearer` (as Cryptr's Kotlin SDK does), for the codes of the sign-ins it started itself; and a request with a `code` but no `grant_type` is read as `authorization_code`. Missing or wrong client authentication (a Bearer token that is not a valid, unrevoked access token of the key the code was issued to included) answers 401 `invalid_client` (with `WWW-Authenticate: Basic` when HTTP Basic was used); unknown, expired or used codes, refresh tokens and wrong `code_verifier`s answer `invalid_grant`.",
  auth: 'none',
  subject: subjects.authMethods.token,
  request: { body: tokenRequestSchema },
  response: { status: 200, description: 'Tokens', schema: tokenSchema },
  errors: [],
  errorStyle: 'oauth',
  rateLimits: [{ limit: 'token_client', by: ['body.client_id'] }, perIp('token_ip')],
  examples: oauthExamples.issueToken,
});

export const getJwks = defineOperation({
  operationId: 'getJwks',
  method: 'get',
  path: '/.well-known/jwks.json',
  aliases: ['/t/{org_domain}/.well-known', '/t/{org_domain}/.well-known/jwks'],
  documentAliases: true,
  tag: 'Token',
  summary: 'Public signing keys (JWKS)',
  description:
    'Also served at `/t/{org_domain}/.well-known`, the path the client SDKs read, and at `/t/{org_domain}/.well-known/jwks`, the one the OmniAuth strategy reads.',
  auth: 'none',
  subject: subjects.authMethods.jwks,
  request: {},
  response: { status: 200, description: 'The JSON Web Key Set', schema: jwksSchema },
  // Public and without input: only a request line over the limit is refused (before any route runs).
  errors: ['uri_too_long'],
  examples: oauthExamples.getJwks,
});

export const oauthOperations = [issueToken, getJwks];
