import { catalogueError, subjects } from '@sesame/contracts';
import { Metrics, RpcRouter, createLogger, failure, ok } from '@sesame/platform';
import { countSignIns, grantOf, proofOutcome } from './sign-in-metrics';

const redirect = (location: string) => ({ ok: true as const, status: 302, body: '', headers: { location } });

describe('sign-in metrics', () => {
  it('counts each proof by method and outcome, and tokens by grant (successful ones only)', async () => {
    const metrics = new Metrics('auth-methods');
    const router = new RpcRouter(createLogger('test', 'silent'), metrics);
    let passwordReply = ok<Record<string, unknown>>({ 'valid?': true, code: 'c' });
    router.on(subjects.authMethods.password.challenge, async () => passwordReply);
    router.on(subjects.authMethods.totp.validateChallenge, async () => failure(catalogueError('invalid_code')));
    router.on(subjects.authMethods.sso.acs, async () => redirect('https://app.example/cb?error=access_denied'));
    router.on(subjects.authMethods.token, async (input: unknown) =>
      grantOf(input) === 'refresh_token' ? failure({ kind: 'oauth', code: 'invalid_grant', description: 'no' }) : ok({}),
    );
    countSignIns(router, metrics);
    const request = (input: unknown = {}) => ({ meta: { correlationId: 'c' }, input });
    await router.dispatch(subjects.authMethods.password.challenge, request());
    passwordReply = ok({ 'valid?': false, error: 'invalid_credentials' });
    await router.dispatch(subjects.authMethods.password.challenge, request());
    passwordReply = failure(catalogueError('unauthorized'));
    await router.dispatch(subjects.authMethods.password.challenge, request());
    await router.dispatch(subjects.authMethods.totp.validateChallenge, request());
    await router.dispatch(subjects.authMethods.sso.acs, request());
    for (const grant_type of ['client_credentials', 'client_credentials', 'refresh_token', 'alice@example.com'])
      await router.dispatch(subjects.authMethods.token, request({ body: { grant_type } }));

    const signIns = (await metrics.signIns.get()).values.map((v) => [v.labels.method, v.labels.outcome, v.value]);
    expect(signIns).toEqual([
      ['password', 'success', 1],
      ['password', 'failure', 2],
      ['totp', 'failure', 1],
      ['sso', 'failure', 1],
    ]);
    const tokens = (await metrics.tokensIssued.get()).values.map((v) => [v.labels.grant, v.value]);
    expect(tokens).toEqual([
      ['client_credentials', 2],
      ['other', 1],
    ]);
  });

  it.each([
    ['a code redirect', redirect('https://app.example/cb?code=abc&request_id=r'), 'success'],
    ['an error redirect', redirect('https://app.example/cb?code=abc&error=access_denied'), 'failure'],
    ['an error page', { ok: true as const, status: 400, body: '<html>' }, 'failure'],
    ['a refusal', failure(catalogueError('unauthorized')), 'failure'],
    ['a crash', failure(catalogueError('internal_server_error')), 'error'],
    ['a JSON answer', ok({ code: 'abc' }), 'success'],
    ['a right password', ok({ 'valid?': true, code: 'abc' }), 'success'],
    ['a wrong password', ok({ 'valid?': false, error: 'invalid_credentials' }), 'failure'],
  ])('the outcome of %s is %s', (_case, reply, outcome) => {
    expect(proofOutcome(reply)).toBe(outcome);
  });

  it.each([
    [{ body: { grant_type: 'authorization_code' } }, 'authorization_code'],
    [{ body: { grant_type: 'relay' } }, 'relay'],
    [{ body: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' } }, 'other'],
    [{ body: {} }, 'other'],
    [{ body: { code: 'c' } }, 'authorization_code'],
    [{ body: { code: 'c', grant_type: 'refresh_token' } }, 'refresh_token'],
    [undefined, 'other'],
  ])('the grant label of %j is %s', (input, grant) => {
    expect(grantOf(input)).toBe(grant);
  });
});
