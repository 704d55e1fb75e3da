import { z } from '../zod';

/** RFC 7636: only `S256` (`plain` gives no protection once the challenge leaks). */
export const codeChallengeMethods = ['S256'] as const;
export const codeVerifierPattern = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * The optional PKCE fields of every call that answers an authorization code (password, magic
 * link, TOTP and SSO challenges). Check the pair with `.superRefine(pkcePair)`.
 */
export const pkceFields = {
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the base64url SHA-256 of the code_verifier (43 characters, no padding)')
    .optional()
    .meta({
      description:
        'PKCE (RFC 7636) for a public client: BASE64URL(SHA-256(code_verifier)). The code is then exchanged with `code_verifier` instead of `client_secret`.',
    }),
  code_challenge_method: z
    .enum(codeChallengeMethods, { error: 'must be S256 (plain is not supported)' })
    .optional()
    .meta({ description: 'S256, required with `code_challenge`' }),
};

export function pkcePair(
  body: { code_challenge?: string | undefined; code_challenge_method?: string | undefined },
  context: z.RefinementCtx,
): void {
  if (body.code_challenge !== undefined && body.code_challenge_method === undefined)
    context.addIssue({ code: 'custom', path: ['code_challenge_method'], message: 'is required with code_challenge: S256' });
  if (body.code_challenge === undefined && body.code_challenge_method !== undefined)
    context.addIssue({ code: 'custom', path: ['code_challenge'], message: 'is required with code_challenge_method' });
}
