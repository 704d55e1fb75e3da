import { adminInvitationMessages, ssoProviderTypes } from '@sesame/contracts';
import { failureOf, problemOfMessage } from './api';
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

  it('knows every message the identity service answers on an invitation token', () => {
    expect(Object.keys(problemOfMessage).sort()).toEqual(["can't be blank", ...Object.values(adminInvitationMessages)].sort());
    const problem = (status: number, body: unknown) => failureOf(status, body).problem;
    expect(problem(422, { errors: { token: [adminInvitationMessages.expired] } })).toBe('expired');
    expect(problem(422, { errors: { token: [adminInvitationMessages.declined] } })).toBe('declined');
    expect(problem(422, { errors: { token: [adminInvitationMessages.used] } })).toBe('used');
    expect(problem(422, { errors: { token: ['something new'] } })).toBe('invalid');
    expect(problem(404, { error: { type: 'resource_not_found' } })).toBe('invalid');
    expect(problem(503, { error: { type: 'service_unavailable' } })).toBe('unavailable');
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
