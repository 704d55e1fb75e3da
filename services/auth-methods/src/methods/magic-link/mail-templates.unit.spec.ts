import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailTemplates, renderTemplate } from './mail-templates';
import { shippedMessageTemplates } from '@sesame/platform';
import { magicLinkMail } from './magic-link-mail';

describe('magic-link mail templates', () => {
  const directory = mkdtempSync(join(tmpdir(), 'sesame-templates-'));
  const templates = new MailTemplates(directory);
  const values = {
    link: 'https://app.acme.com/cb?code=abc&request_id=r1',
    expires_in_minutes: '10',
    organization: 'Acme <Corp>',
    email: 'ada@acme.com',
  };
  beforeAll(() => {
    writeFileSync(
      join(directory, 'welcome.txt'),
      'Subject: Sign in to {{organization}}\n\nHello {{ email }}, open {{link}} ({{expires_in_minutes}} min).\n',
    );
    writeFileSync(join(directory, 'welcome.html'), '<p>Hello {{email}}, <a href="{{link}}">sign in to {{organization}}</a></p>');
    writeFileSync(join(directory, 'plain.txt'), 'Open {{link}}');
    writeFileSync(join(directory, 'typo.txt'), 'Open {{lnk}} for {{organisation}}');
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('accepts an existing template that uses only the documented placeholders', async () => {
    expect(await templates.problemWith('welcome')).toBeNull();
    expect(await templates.problemWith('plain')).toBeNull();
  });

  it('names what is wrong with an unknown, misnamed or mistyped template', async () => {
    expect(await templates.problemWith('missing')).toBe('is not a mail template: no missing.txt in the mail template directory');
    expect(await templates.problemWith('../welcome')).toBe(
      'is not a mail template: no ../welcome.txt in the mail template directory',
    );
    expect(await templates.problemWith('typo')).toBe('uses unknown placeholders: lnk, organisation');
    expect(await new MailTemplates(undefined).problemWith('welcome')).toBe(
      'cannot be used: no mail template directory is configured (SESAME_MAIL_TEMPLATES_DIR)',
    );
  });

  it('renders the subject line, the text and the HTML-escaped HTML part', async () => {
    const template = await templates.load('welcome');
    if (!template) throw new Error('no template');
    expect(renderTemplate(template, values)).toEqual({
      subject: 'Sign in to Acme <Corp>',
      text: 'Hello ada@acme.com, open https://app.acme.com/cb?code=abc&request_id=r1 (10 min).\n',
      html: '<p>Hello ada@acme.com, <a href="https://app.acme.com/cb?code=abc&amp;request_id=r1">sign in to Acme &lt;Corp&gt;</a></p>',
    });
  });

  it('builds the magic-link email from the named template, or the default one in the organization language', async () => {
    const expiresAt = new Date('2026-11-26T14:30:00Z');
    const english = { messages: shippedMessageTemplates(), audience: { locale: 'en', timezone: 'UTC' }, expiresAt };
    const french = { ...english, audience: { locale: 'fr', timezone: 'Europe/Paris' } };
    expect(await magicLinkMail(templates, 'plain', values, english)).toEqual({
      subject: 'Your sign-in link for Acme <Corp>',
      text: `Open ${values.link}`,
    });
    expect((await magicLinkMail(templates, 'plain', values, french)).subject).toBe('Votre lien de connexion à Acme <Corp>');
    expect(await magicLinkMail(templates, null, values, english)).toMatchObject({
      subject: 'Your sign-in link for Acme <Corp>',
      text: `Sign in to Acme <Corp> with this link, valid for 10 minutes (until November 26, 2026 at 2:30 PM UTC) and usable once:\n\n${values.link}\n\nIf you did not ask for it, ignore this email.`,
    });
    expect(await magicLinkMail(templates, null, values, french)).toMatchObject({
      subject: 'Votre lien de connexion à Acme <Corp>',
      text: `Connectez-vous à Acme <Corp> avec ce lien, valable 10 minutes (jusqu’au 26 novembre 2026 à 15:30 UTC+1) et utilisable une seule fois :\n\n${values.link}\n\nSi vous ne l’avez pas demandé, ignorez cet e-mail.`,
    });
    // A template removed since the connection named it: the default email still goes out.
    expect((await magicLinkMail(templates, 'removed', values, french)).subject).toBe('Votre lien de connexion à Acme <Corp>');
  });
});
