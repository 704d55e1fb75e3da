import { z } from '../zod';
import { jwksSchema, tokenSchema } from '../entities/misc.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';

export const grantTypes = ['client_credentials', 'authorization_code', 'refresh_token', 'relay'] as const;

export const tokenRequestSchema = z
  .object({
    grant_type: z.string().min(1),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    audience: z.string().optional(),
    scope: z.string().optional(),
    code: z.string().optional(),
    redirect_uri: z.string().optional(),
    refresh_token: z.string().optional(),
    nonce: z.string().optional(),
  })
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const issueToken = defineOperation({
  operationId: 'issueToken',
  method: 'post',
  path: '/oauth/token',
  aliases: ['/api/v2/oauth/token'],
  tag: 'Token',
  summary: 'Get tokens',
  description:
    "OAuth 2.0 token endpoint (also served at `/api/v2/oauth/token`). `client_credentials` exchanges an API key for an access token. `authorization_code` exchanges the one-time `code` a sign-in answered (password, magic link, TOTP, SSO) for the user's `access_token`, `id_token` and `refresh_token`; the code works once and expires after 120 seconds by default. `refresh_token` exchanges a refresh token for new tokens and a new refresh token; presenting a refresh token that was already exchanged revokes every token of that sign-in. Unknown, expired or used codes and refresh tokens answer `invalid_grant`. Client credentials may also be sent with HTTP Basic authentication; with a user grant they are optional, and when `client_secret` is sent the client must be an active API key (401 `invalid_client` otherwise).",
  auth: 'none',
  subject: subjects.authMethods.token,
  request: { body: tokenRequestSchema },
  response: { status: 200, description: 'Tokens', schema: tokenSchema },
  errors: [],
  errorStyle: 'oauth',
});

export const getJwks = defineOperation({
  operationId: 'getJwks',
  method: 'get',
  path: '/.well-known/jwks.json',
  aliases: ['/t/{org_domain}/.well-known'],
  tag: 'Token',
  summary: 'Public signing keys (JWKS)',
  description: 'Also served at `/t/{org_domain}/.well-known`, the path the client SDKs read.',
  auth: 'none',
  subject: subjects.authMethods.jwks,
  request: {},
  response: { status: 200, description: 'The JSON Web Key Set', schema: jwksSchema },
  errors: [],
});

export const oauthOperations = [issueToken, getJwks];
