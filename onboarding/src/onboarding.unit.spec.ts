import { adminInvitationMessages, ssoProviderTypes } from '@sesame/contracts';
import { problemOf, problemOfMessage } from './api';
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
    expect(problemOf(422, { errors: { token: [adminInvitationMessages.expired] } })).toBe('expired');
    expect(problemOf(422, { errors: { token: [adminInvitationMessages.declined] } })).toBe('declined');
    expect(problemOf(422, { errors: { token: [adminInvitationMessages.used] } })).toBe('used');
    expect(problemOf(422, { errors: { other: ['x'] } })).toBe('invalid');
    expect(problemOf(503, { error: { type: 'service_unavailable' } })).toBe('unavailable');
  });

  it('speaks the language asked in the link, else the browser’s, else English', () => {
    expect(chooseLanguage('fr', ['en-US'])).toBe('fr');
    expect(chooseLanguage(null, ['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(chooseLanguage('es', ['de'])).toBe('en');
  });
});
