import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultTemplatesDir, formatDuration, loadMessageTemplates, readerOf, renderMessage } from './index';

describe('localized messages', () => {
  const templates = loadMessageTemplates();
  const expiresAt = new Date('2026-11-26T14:30:00Z');
  const reset = {
    organization: 'Acme <Corp>',
    email: 'ada@acme.com',
    link: 'https://app.acme.com/reset?password_code=abc&request_id=r1',
    expires_at: expiresAt,
    valid_for: { durationMs: 3_600_000 },
  };

  it('writes a French organization its email in French, dates in its time zone', () => {
    const mail = renderMessage(templates, 'password-reset', { locale: 'fr-FR', timezone: 'Europe/Paris' }, reset);
    expect(mail.language).toBe('fr');
    expect(mail.subject).toBe('Réinitialisez votre mot de passe pour Acme <Corp>');
    expect(mail.text).toBe(
      'Quelqu’un a demandé à réinitialiser le mot de passe de ada@acme.com pour Acme <Corp>. Pour choisir un nouveau mot de passe, ouvrez ce lien (valable 1 heure, jusqu’au 26 novembre 2026 à 15:30 UTC+1) :\n\n' +
        'https://app.acme.com/reset?password_code=abc&request_id=r1\n\nSi ce n’était pas vous, ignorez cet e-mail.',
    );
  });

  it('writes an English organization in English, and HTML-escapes values in the HTML part only', () => {
    const mail = renderMessage(templates, 'password-reset', { locale: 'en', timezone: 'America/New_York' }, reset);
    expect(mail.language).toBe('en');
    expect(mail.subject).toBe('Reset your password for Acme <Corp>');
    expect(mail.text).toContain('(valid 1 hour, until November 26, 2026 at 9:30 AM EST)');
    expect(mail.html).toBe(
      '<p>Someone asked to reset the password of ada@acme.com for <strong>Acme &lt;Corp&gt;</strong>.</p>\n' +
        '<p><a href="https://app.acme.com/reset?password_code=abc&amp;request_id=r1">Choose a new password</a> (valid 1 hour, until November 26, 2026 at 9:30 AM EST).</p>\n' +
        '<p>If it was not you, ignore this email.</p>',
    );
  });

  it('falls back to English for an unknown, invalid or absent locale, and to UTC without a valid time zone', () => {
    for (const locale of ['de-DE', 'not a locale!', null, undefined, ''])
      expect(readerOf({ locale, timezone: null })).toEqual({ language: 'en', formatLocale: 'en', timeZone: 'UTC' });
    expect(readerOf({ locale: 'fr-ca', timezone: 'Mars/Olympus' })).toEqual({
      language: 'fr',
      formatLocale: 'fr-CA',
      timeZone: 'UTC',
    });
    const mail = renderMessage(templates, 'magic-link', { locale: 'de', timezone: undefined }, reset);
    expect(mail.subject).toBe('Your sign-in link for Acme <Corp>');
    expect(mail.text).toContain('valid for 1 hour (until November 26, 2026 at 2:30 PM UTC)');
  });

  it('writes the TOTP text message in the organization language', () => {
    const values = { organization: 'acme', code: '123456', valid_for: { durationMs: 600_000 } };
    expect(renderMessage(templates, 'totp-code', { locale: 'fr', timezone: null }, values)).toEqual({
      language: 'fr',
      text: '123456 est votre code de vérification acme. Il expire dans 10 minutes.',
    });
    expect(renderMessage(templates, 'totp-code', { locale: 'en-GB', timezone: null }, values)).toEqual({
      language: 'en',
      text: '123456 is your acme verification code. It expires in 10 minutes.',
    });
  });

  it('words durations in the reader language, in the largest whole unit', () => {
    expect([3_600_000, 7_200_000, 1_800_000, 90_000, 1_000].map((ms) => formatDuration(ms, 'en'))).toEqual([
      '1 hour',
      '2 hours',
      '30 minutes',
      '90 seconds',
      '1 second',
    ]);
    expect([3_600_000, 28_800_000, 60_000, 5_000].map((ms) => formatDuration(ms, 'fr'))).toEqual([
      '1 heure',
      '8 heures',
      '1 minute',
      '5 secondes',
    ]);
  });

  it('refuses, when it loads them, templates that are missing or use an unknown placeholder', () => {
    const directory = mkdtempSync(join(tmpdir(), 'sesame-messages-'));
    try {
      cpSync(defaultTemplatesDir, directory, { recursive: true });
      writeFileSync(join(directory, 'fr', 'totp-code.txt'), '{{code}} pour {{organisation}}');
      rmSync(join(directory, 'en', 'magic-link.html'));
      expect(() => loadMessageTemplates(directory)).toThrow(
        `message templates in ${directory}: ${join(directory, 'en', 'magic-link.html')} is missing; ` +
          `${join(directory, 'fr', 'totp-code.txt')} uses unknown placeholders: organisation`,
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses to render without a value for a placeholder', () => {
    const { valid_for: _missing, ...values } = reset;
    expect(() => renderMessage(templates, 'magic-link', { locale: 'fr', timezone: null }, values as never)).toThrow(
      'the message magic-link needs a value for {{valid_for}}',
    );
  });
});
