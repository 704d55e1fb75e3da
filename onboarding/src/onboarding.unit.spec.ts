import { adminInvitationMessages, onboardingSessionMessages, ssoProviderTypes } from '@sesame/contracts';
import { failureOf, problemOfMessage, startOnboarding } from './api';
import { chooseLanguage, messages } from './i18n';
import { providers } from './providers';

describe('onboarding page', () => {
  it('offers every provider type of an SSO connection, with steps in both languages', () => {
    expect([...providers].sort()).toEqual([...ssoProviderTypes].sort());
    for (const provider of providers) {
      expect(messages.en.instructions[provider].length).toBeGreaterThanOrEqual(4);
      expect(messages.fr.instructions[provider]).toHaveLength(messages.en.instructions[provider].length);
    }
  });

  it('knows every message the identity service answers on an invitation link or an onboarding session', () => {
    expect(Object.keys(problemOfMessage).sort()).toEqual(
      ["can't be blank", ...Object.values(adminInvitationMessages), ...Object.values(onboardingSessionMessages)].sort(),
    );
    const problem = (status: number, body: unknown) => failureOf(status, body).problem;
    const token = (message: string) => ({ errors: { token: [message] } });
    expect(problem(422, token(adminInvitationMessages.expired))).toBe('expired');
    expect(problem(422, token(adminInvitationMessages.declined))).toBe('declined');
    expect(problem(422, token(adminInvitationMessages.used))).toBe('used');
    expect(problem(422, token(adminInvitationMessages.revoked))).toBe('revoked');
    expect(problem(422, token('something new'))).toBe('invalid');
    const session = (message: string) => ({ error: { type: 'onboarding_session_required', message, doc_urls: [] } });
    expect(problem(401, session(onboardingSessionMessages.missing))).toBe('missing');
    expect(problem(401, session(onboardingSessionMessages.ended))).toBe('sessionEnded');
    expect(problem(401, session(onboardingSessionMessages.expired))).toBe('sessionExpired');
    expect(problem(401, session('something new'))).toBe('sessionEnded');
    expect(problem(403, { error: { type: 'cross_site_request' } })).toBe('invalid');
    expect(problem(404, { error: { type: 'resource_not_found' } })).toBe('invalid');
    expect(problem(503, { error: { type: 'service_unavailable' } })).toBe('unavailable');
  });

  it('has a page for every problem, in both languages', () => {
    const problems = Object.keys(messages.en.problems).sort();
    expect(Object.keys(messages.fr.problems).sort()).toEqual(problems);
    expect(problems).toEqual(
      ['declined', 'expired', 'invalid', 'missing', 'revoked', 'sessionEnded', 'sessionExpired', 'unavailable', 'used'].sort(),
    );
  });

  it('opens the link once; opened again in the browser it opened, goes on with that browser’s session', async () => {
    const invitation = { admin: { email: 'it@acme.com' } };
    const used = { errors: { token: [adminInvitationMessages.used] } };
    const noSession = { error: { type: 'onboarding_session_required', message: onboardingSessionMessages.missing } };
    const run = async (token: string | null, answers: Record<string, [number, unknown]>) => {
      const calls: string[] = [];
      const original = global.fetch;
      global.fetch = (async (path: string, init: RequestInit) => {
        calls.push(`${path} ${String(init.body)} ${init.credentials}`);
        const [status, body] = answers[path] as [number, unknown];
        return new Response(JSON.stringify(body), { status });
      }) as typeof fetch;
      try {
        return { answer: await startOnboarding(token), calls };
      } finally {
        global.fetch = original;
      }
    };
    const open = '/api/v2/admin-invitations/open';
    const session = '/api/v2/admin-invitations/session';
    expect(await run('link', { [open]: [200, invitation] })).toEqual({
      answer: { ok: true, body: invitation },
      calls: [`${open} {"token":"link"} same-origin`],
    });
    expect(await run('link', { [open]: [422, used], [session]: [200, invitation] })).toEqual({
      answer: { ok: true, body: invitation },
      calls: [`${open} {"token":"link"} same-origin`, `${session} {} same-origin`],
    });
    expect((await run('link', { [open]: [422, used], [session]: [401, noSession] })).answer).toMatchObject({ problem: 'used' });
    expect((await run(null, { [session]: [401, noSession] })).answer).toMatchObject({ problem: 'missing' });
  });

  it('keeps the field errors of what was sent when the link itself is fine', () => {
    expect(failureOf(422, { errors: { metadata: ['has no signing certificate'] } })).toEqual({
      ok: false,
      problem: null,
      fields: { metadata: ['has no signing certificate'] },
    });
  });

  it('speaks the language asked in the link, else the browser’s, else English', () => {
    expect(chooseLanguage('fr', ['en-US'])).toBe('fr');
    expect(chooseLanguage(null, ['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(chooseLanguage('es', ['de'])).toBe('en');
  });
});
