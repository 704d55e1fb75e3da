import { randomUUID } from 'node:crypto';
import { formatDate } from '@sesame/platform';
import { inviteAdmin } from '../support/admin-invitations';
import { createOrganization } from '../support/identity-fixtures';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';

const callback = 'https://app.example.com/auth/callback';

/** What a person reads, in each language: the organization's `locale` chooses, its `timezone` sets the clock. */
const languages = [
  {
    name: 'French',
    locale: 'fr-FR',
    timezone: 'Europe/Paris',
    formatLocale: 'fr-FR',
    invitation: {
      subject: 'Vous êtes invité à configurer l’authentification unique de',
      rule: 'Ce lien ne fonctionne qu’une fois, et seulement jusqu’au',
    },
    reset: {
      subject: 'Réinitialisez votre mot de passe pour',
      text: 'Pour choisir un nouveau mot de passe, ouvrez ce lien (valable 1 heure, jusqu’au',
    },
    magicLink: { subject: 'Votre lien de connexion à', text: 'avec ce lien, valable 10 minutes (jusqu’au' },
    sms: (code: string, org: string) => `${code} est votre code de vérification ${org}. Il expire dans 10 minutes.`,
  },
  {
    name: 'English',
    locale: 'en',
    timezone: 'America/New_York',
    formatLocale: 'en',
    invitation: { subject: 'You are invited to set up single sign-on for', rule: 'This link works once, and only until' },
    reset: { subject: 'Reset your password for', text: 'To choose a new password, open this link (valid 1 hour, until' },
    magicLink: { subject: 'Your sign-in link for', text: 'with this link, valid for 10 minutes (until' },
    sms: (code: string, org: string) => `${code} is your ${org} verification code. It expires in 10 minutes.`,
  },
] as const;

let system: System;
beforeAll(async () => {
  system = await sharedSystem();
  expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
});

describe.each(languages)('Emails and text messages of the $name organization (all processes, real NATS)', (language) => {
  let org: string;
  const name = `${language.name} Org`;
  const emailDomain = `${language.name.toLowerCase()}-messages.example.com`;
  const email = (user: string) => `${user}@${emailDomain}`;
  const outbox = async (to: string) =>
    (await system.request('GET', `/dev/outbox?to=${encodeURIComponent(to)}`, { token: null })).body.data as {
      subject: string;
      text: string;
      html?: string;
      links: { rel: string; url: string }[];
    }[];
  /** A date as the organization's people read it: their language, their time zone. */
  const readable = (iso: string) =>
    formatDate(new Date(iso), { formatLocale: language.formatLocale, timeZone: language.timezone });

  beforeAll(async () => {
    org = await createOrganization(system, name, {
      allowed_email_domains: [emailDomain],
      locale: language.locale,
      timezone: language.timezone,
    });
  });

  it('sends the IT-admin invitation in the organization language, its expiry on the organization clock', async () => {
    const { mail, link } = await inviteAdmin(system, org, email('it'));
    const admin = await system.request('GET', `/api/v2/org/${org}/admins/${encodeURIComponent(email('it'))}`);
    const expires = new Date(Date.parse(admin.body.invited_at) + 3_600_000).toISOString();
    expect(mail.subject).toBe(`${language.invitation.subject} ${name}`);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain(`${language.invitation.rule} ${readable(expires)} (`);
  });

  it('sends the password reset email in the organization language', async () => {
    expect((await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: email('reset') } })).status).toBe(201);
    const requested = await system.request('POST', '/api/v2/password-request', {
      body: { org_domain: org, user_email: email('reset'), redirect_uri: callback },
    });
    expect(requested.status).toBe(201);
    const mail = (await outbox(email('reset'))).at(-1);
    expect(mail?.subject).toBe(`${language.reset.subject} ${name}`);
    expect(mail?.text).toContain(`${language.reset.text} ${readable(requested.body.expired_at)})`);
    expect(mail?.text).toContain(requested.body.magic_link);
    expect(mail?.html).toContain(`<strong>${name}</strong>`);
  });

  it('sends the magic link in the organization language', async () => {
    expect((await system.request('POST', `/api/v2/org/${org}/magic-link-connection`, { body: {} })).status).toBe(201);
    expect((await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: email('magic') } })).status).toBe(201);
    const before = Date.now();
    const answer = await system.request('POST', '/api/v2/magic-link-challenge', {
      body: { email: email('magic'), redirect_uri: callback },
    });
    expect(answer.status).toBe(201);
    const mail = (await outbox(email('magic'))).at(-1);
    expect(mail?.subject).toBe(`${language.magicLink.subject} ${name}`);
    expect(mail?.text).toContain(answer.body.magic_link);
    // The link expires 10 minutes after it was issued: the minute shown is one of the two around then.
    const shown = [0, 60_000].map((skew) => readable(new Date(before + 600_000 + skew - (before % 60_000)).toISOString()));
    expect(shown.some((date) => mail?.text.includes(`${language.magicLink.text} ${date})`))).toBe(true);
  });

  it('texts the TOTP code in the organization language', async () => {
    const phone = language.name === 'French' ? '+33633334444' : '+12025550143';
    const user = await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: email('sms'), phone_number: phone } });
    expect(user.status).toBe(201);
    const switched = await system.request('PUT', `/api/v2/org/${org}/totp-connection`, { body: { active: true, method: 'sms' } });
    expect(switched.status).toBe(200);
    const enrolled = await system.request('POST', `/api/v2/org/${org}/totp-enrollment/${user.body.id}`, { body: {} });
    expect(enrolled.status).toBe(201);
    const { body } = await system.request('GET', `/dev/sms-outbox?to=${encodeURIComponent(phone)}`, { token: null });
    expect(body.data.at(-1).text).toBe(language.sms(enrolled.body.first_verification_code, org));
  });
});

describe('SAML error pages (all processes, real NATS)', () => {
  /** A browser posting a response to the ACS of a connection that does not exist, with its languages. */
  const acsPage = async (acceptLanguage: string | null) => {
    const response = await fetch(`${system.baseUrl}/sso/saml/${randomUUID()}/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(acceptLanguage === null ? {} : { 'accept-language': acceptLanguage }),
      },
      body: 'SAMLResponse=PHNhbWw%2BPC9zYW1sPg%3D%3D',
    });
    return { status: response.status, language: response.headers.get('content-language'), body: await response.text() };
  };

  it('speak the language the browser weighs most, English by default', async () => {
    const french = await acsPage('de-DE, en;q=0.5, fr-CH;q=0.8');
    expect(french).toMatchObject({ status: 400, language: 'fr' });
    expect(french.body).toContain('<h1>Échec de la connexion</h1>');
    expect(french.body).toContain('L’authentification unique n’est pas disponible pour cette organisation.');
    for (const acceptLanguage of ['en-US,en;q=0.9,fr;q=0.8', 'fr;q=0, es', null]) {
      const english = await acsPage(acceptLanguage);
      expect(english).toMatchObject({ status: 400, language: 'en' });
      expect(english.body).toContain('<h1>Sign-in failed</h1><p>Single sign-on is not available for this organization.</p>');
    }
  });
});

describe('The onboarding page (all processes, real NATS)', () => {
  const page = async (acceptLanguage: string | null) => {
    const response = await fetch(`${system.baseUrl}/onboarding/admin-invitation`, {
      headers: acceptLanguage === null ? {} : { 'accept-language': acceptLanguage },
    });
    return {
      status: response.status,
      language: response.headers.get('content-language'),
      vary: response.headers.get('vary'),
      html: await response.text(),
    };
  };

  it('starts in the language the browser weighs most, English by default', async () => {
    expect(await page('en;q=0.2, fr-CA;q=0.7')).toMatchObject({
      status: 200,
      language: 'fr',
      vary: 'Accept-Language',
      html: expect.stringContaining('<html lang="fr">'),
    });
    for (const acceptLanguage of ['en-GB, fr;q=0.9', 'de', null])
      expect(await page(acceptLanguage)).toMatchObject({
        status: 200,
        language: 'en',
        html: expect.stringContaining('<html lang="en">'),
      });
  });
});
