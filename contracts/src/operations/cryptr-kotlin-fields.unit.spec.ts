import { createMagicLinkChallengeBodySchema } from './magic-link.operations';
import { tokenRequestSchema } from './oauth.operations';

const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe("the field names of Cryptr's Kotlin SDK", () => {
  it('reads the magic-link user_email as email, idempotently (the gateway and the service both validate)', () => {
    const once = createMagicLinkChallengeBodySchema.parse({ user_email: ' ada@acme.com ', redirect_uri: 'https://a.co/cb' });
    expect(once).toEqual({ email: 'ada@acme.com', redirect_uri: 'https://a.co/cb' });
    expect(createMagicLinkChallengeBodySchema.parse(once)).toEqual(once);
    expect(createMagicLinkChallengeBodySchema.parse({ email: 'ada@acme.com', user_email: 'ada@acme.com' })).toEqual({
      email: 'ada@acme.com',
    });
  });

  it('refuses a magic-link challenge without either name, or with two different emails', () => {
    expect(errorsOf(createMagicLinkChallengeBodySchema.safeParse({}))).toEqual({ email: "can't be blank" });
    expect(errorsOf(createMagicLinkChallengeBodySchema.safeParse({ email: 'a@acme.com', user_email: 'b@acme.com' }))).toEqual({
      user_email: 'must be the same as email when both are given (user_email is another name for email)',
    });
  });

  it('reads a token request without grant_type but with a code as authorization_code; without either it is refused', () => {
    expect(tokenRequestSchema.parse({ code: 'c' })).toEqual({ code: 'c', grant_type: 'authorization_code' });
    expect(tokenRequestSchema.parse({ grant_type: 'refresh_token', code: 'c' }).grant_type).toBe('refresh_token');
    expect(errorsOf(tokenRequestSchema.safeParse({ refresh_token: 'r' }))).toEqual({ grant_type: "can't be blank" });
  });
});
