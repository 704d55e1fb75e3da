import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailTemplates, renderTemplate } from './mail-templates';
import { magicLinkMail } from './magic-link.module';

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

  it('builds the magic-link email from the named template, or the default one', async () => {
    expect(await magicLinkMail(templates, 'plain', values)).toEqual({
      subject: 'Your sign-in link for Acme <Corp>',
      text: `Open ${values.link}`,
    });
    expect(await magicLinkMail(templates, null, values)).toEqual({
      subject: 'Your sign-in link for Acme <Corp>',
      text: `Sign in to Acme <Corp> with this link, valid for 10 minutes and usable once:\n\n${values.link}\n\nIf you did not ask for it, ignore this email.`,
    });
    // A template removed since the connection named it: the default email still goes out.
    expect((await magicLinkMail(templates, 'removed', values)).subject).toBe('Your sign-in link for Acme <Corp>');
  });
});
