import { fieldErrorsFromZod } from './errors';
import { passwordChallengeBodySchema } from '../operations/password.operations';
import { createMagicLinkChallengeBodySchema } from '../operations/magic-link.operations';
import { validateTotpChallengeBodySchema } from '../operations/totp.operations';
import { ssoSamlChallengeBodySchema } from '../operations/sso.operations';
import { tokenRequestSchema } from '../operations/oauth.operations';

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const bodies = {
  password: { user_email: 'ada@acme.com', plain_text: 'x' },
  magicLink: { email: 'ada@acme.com' },
  totp: { code: '123456' },
  sso: { redirect_uri: 'https://app.acme.com/cb', org_domain: 'acme' },
};
const schemas = {
  password: passwordChallengeBodySchema,
  magicLink: createMagicLinkChallengeBodySchema,
  totp: validateTotpChallengeBodySchema,
  sso: ssoSamlChallengeBodySchema,
};
const errorsOf = (name: keyof typeof schemas, extra: Record<string, unknown>) => {
  const parsed = schemas[name].safeParse({ ...bodies[name], ...extra });
  return parsed.success ? null : fieldErrorsFromZod(parsed.error);
};

describe('PKCE fields of the sign-in calls that answer a code', () => {
  it.each(Object.keys(schemas) as (keyof typeof schemas)[])('%s: accepts S256, refuses plain and half pairs', (name) => {
    expect(errorsOf(name, {})).toBeNull();
    expect(errorsOf(name, { code_challenge: challenge, code_challenge_method: 'S256' })).toBeNull();
    expect(errorsOf(name, { code_challenge: challenge, code_challenge_method: 'plain' })).toEqual({
      code_challenge_method: ['must be S256 (plain is not supported)'],
    });
    expect(errorsOf(name, { code_challenge: challenge })).toEqual({
      code_challenge_method: ['is required with code_challenge: S256'],
    });
    expect(errorsOf(name, { code_challenge_method: 'S256' })).toEqual({
      code_challenge: ['is required with code_challenge_method'],
    });
    expect(errorsOf(name, { code_challenge: `${challenge}=`, code_challenge_method: 'S256' })).toEqual({
      code_challenge: ['must be the base64url SHA-256 of the code_verifier (43 characters, no padding)'],
    });
  });

  it('takes a code_verifier of 43 to 128 unreserved characters at the token endpoint', () => {
    const parse = (code_verifier: string) => tokenRequestSchema.safeParse({ grant_type: 'authorization_code', code_verifier });
    expect(parse('a'.repeat(43)).success).toBe(true);
    expect(parse(`${'A'.repeat(124)}-._~`).success).toBe(true);
    for (const bad of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}=`]) {
      const parsed = parse(bad);
      expect(parsed.success ? null : fieldErrorsFromZod(parsed.error)).toEqual({
        code_verifier: ['must be 43 to 128 characters among A-Z a-z 0-9 - . _ ~ (RFC 7636)'],
      });
    }
  });
});
