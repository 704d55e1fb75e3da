import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { System } from '../../test/support/system';
import { createOrganization } from '../../test/support/identity-fixtures';
import { inviteAdmin } from '../../test/support/admin-invitations';
import { idpReceivesAuthnRequest } from '../../test/support/saml-browser';
import { TestIdp } from '../../test/support/saml-idp';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';
import { collectErrors, launchChromium } from './support/chromium';

const fixtures = join(__dirname, '../../services/auth-methods/src/methods/sso-saml/metadata/fixtures');

/** The IT-admin onboarding page in Debian's chromium, against the real system. */
describe('IT-admin onboarding page (chromium, all processes)', () => {
  let system: System;
  let browser: Browser;
  let org: string;
  let context: BrowserContext;
  let errors: string[];

  beforeAll(async () => {
    [system, browser] = await Promise.all([System.start(), launchChromium()]);
    org = await createOrganization(system, 'Browser Onboarding Org');
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 900 } });
    errors = collectErrors(context);
  });
  afterEach(async () => {
    await context.close();
  });

  const visit = async (url: string): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(url);
    return page;
  };
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

  it('opens the link once into a session of this browser (HttpOnly cookie), keeps it on reload, and finishes the set-up', async () => {
    const { link } = await inviteAdmin(system, org, 'accepting.admin@example.com');
    const page = await visit(link);
    await page.getByRole('heading', { name: en.title }).waitFor();
    expect(page.url()).toBe(`${system.baseUrl}/onboarding/admin-invitation`);
    expect(await text(page, 'invited-as')).toBe(en.invitedAs('accepting.admin@example.com', 'Browser Onboarding Org'));
    expect(await text(page, 'session')).toMatch(
      /^This page is open for you in this browser until .+ at the latest, and closes after 30 minutes without activity\./,
    );
    const [cookie] = await context.cookies(system.baseUrl + '/api/v2/admin-invitations/session');
    expect(cookie).toMatchObject({
      name: 'sesame_onboarding',
      path: '/api/v2/admin-invitations',
      httpOnly: true,
      sameSite: 'Strict',
    });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).toBe('{}');

    await page.reload();
    await page.getByRole('heading', { name: en.title }).waitFor();
    await page.getByRole('button', { name: en.finish.button }).click();
    await page.getByTestId('finished').waitFor();
    expect(await page.getByRole('heading').innerText()).toBe(en.finish.doneTitle);
    const admin = await system.request('GET', `/api/v2/org/${org}/admins/accepting.admin@example.com`);
    expect(admin.body.accepted_invitation_at).toEqual(expect.any(String));
    expect(await context.cookies(system.baseUrl + '/api/v2/admin-invitations/session')).toEqual([]);

    // The session ended with the set-up: the page needs a new link, and the old one is used up.
    await page.reload();
    await page.getByTestId('problem-missing').waitFor();
    const again = await visit(link);
    await again.getByTestId('problem-used').waitFor();
    expect(await again.getByRole('heading').innerText()).toBe(en.problems.used.title);
  });

  it('refuses the link in a second browser (in French there), while the first browser goes on, also from the link', async () => {
    const { link } = await inviteAdmin(system, org, 'two.browsers@example.com');
    const page = await visit(link);
    await page.getByRole('heading', { name: en.title }).waitFor();
    const other = await browser.newContext({ locale: 'fr-FR' });
    try {
      const elsewhere = await other.newPage();
      await elsewhere.goto(link);
      await elsewhere.getByTestId('problem-used').waitFor();
      expect(await elsewhere.getByRole('heading').innerText()).toBe(fr.problems.used.title);
      expect(await elsewhere.getByRole('alert').innerText()).toContain(fr.problems.used.text);
    } finally {
      await other.close();
    }
    const back = await visit(link);
    await back.getByRole('heading', { name: en.title }).waitFor();
    expect(await text(back, 'invited-as')).toBe(en.invitedAs('two.browsers@example.com', 'Browser Onboarding Org'));
  });

  it('shows the steps of each identity provider, in English and in French', async () => {
    const { link } = await inviteAdmin(system, org, 'provider.admin@example.com');
    const page = await visit(link);
    await page.getByRole('heading', { name: en.title }).waitFor();
    for (const [provider, name] of [
      ['okta', 'Okta'],
      ['azure_ad', 'Microsoft Entra ID (Azure AD)'],
      ['adfs', 'Active Directory Federation Services (AD FS)'],
      ['google', 'Google Workspace'],
      ['ping_federate', 'PingFederate'],
      ['ping_one', 'PingOne'],
      ['auth0', 'Auth0'],
      ['onelogin', 'OneLogin'],
      ['custom_saml', 'Other SAML 2.0 provider'],
    ] as const) {
      await page.getByLabel(name).check();
      // The steps appear once our SP settings have loaded (a request of their own, slower under load).
      await page.getByRole('heading', { name: en.steps.instructions(name) }).waitFor();
      const steps = await page.getByTestId('instructions').locator('li').allInnerTexts();
      expect(steps).toEqual(en.instructions[provider]);
    }
    await page.getByRole('button', { name: 'Français' }).click();
    await page.getByRole('heading', { name: fr.title }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.getByTestId('instructions').locator('li').allInnerTexts()).toEqual(fr.instructions.custom_saml);
    expect(await text(page, 'invited-as')).toBe(fr.invitedAs('provider.admin@example.com', 'Browser Onboarding Org'));
    expect(errors).toEqual([]);
  });

  it('speaks the organization’s locale unless the link asks for a language, and names its email domains', async () => {
    const french = await createOrganization(system, 'Organisation Française', {
      allowed_email_domains: ['francaise-onboarding.example'],
      locale: 'fr-FR',
    });
    const { link } = await inviteAdmin(system, french, 'admin@francaise-onboarding.example');
    const page = await visit(link);
    await page.getByRole('heading', { name: fr.title }).waitFor();
    expect(await text(page, 'domains')).toBe(fr.signInDomains('francaise-onboarding.example'));
    // Back in the same browser (its session), the language asked in the address wins.
    const english = await visit(`${system.baseUrl}/onboarding/admin-invitation?lang=en`);
    await english.getByRole('heading', { name: en.title }).waitFor();
    expect(await text(english, 'domains')).toBe(en.signInDomains('francaise-onboarding.example'));
    expect(errors).toEqual([]);
  });

  it('shows our SAML values with copy buttons, saves uploaded metadata and explains refused metadata', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.baseUrl });
    const { link } = await inviteAdmin(system, org, 'metadata.admin@example.com');
    const page = await visit(link);
    await page.getByLabel('Okta').check();
    const base = `${system.baseUrl}/sso/saml/${org}_sandbox`;
    expect(await page.getByLabel(en.values.acsUrl).inputValue()).toBe(`${base}/acs`);
    expect(await page.getByLabel(en.values.entityId).inputValue()).toBe(`${base}/metadata`);
    expect(await page.getByLabel(en.values.metadataUrl).inputValue()).toBe(`${base}/metadata`);
    await page.getByTestId('copy-acs-url').click();
    await page.getByTestId('copy-acs-url').getByText(en.values.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/acs`);

    await page.getByLabel(en.metadata.paste).fill('<md:EntityDescriptor');
    await page.getByRole('button', { name: en.metadata.save }).click();
    await page.getByTestId('metadata-errors').waitFor();
    expect(await text(page, 'metadata-errors')).toMatch(/^The metadata was refused:\s+metadata is not valid XML/);

    await page.getByLabel(en.metadata.file).setInputFiles(join(fixtures, 'okta.xml'));
    await page.waitForFunction(() => (document.getElementById('metadata-xml') as HTMLTextAreaElement).value.length > 0);
    await page.getByRole('button', { name: en.metadata.save }).click();
    await page.getByTestId('connected').waitFor();
    const connection = (await system.request('GET', `/api/v2/org/${org}/sso-connection`)).body;
    expect(connection).toMatchObject({
      provider_type: 'okta',
      metadata: readFileSync(join(fixtures, 'okta.xml'), 'utf8').trim(),
    });
    expect(await text(page, 'connected')).toContain(connection.identity_provider.entity_id);

    const again = await visit(`${system.baseUrl}/onboarding/admin-invitation`);
    await again.getByTestId('connected').waitFor();
    expect(await again.getByLabel('Okta').isChecked()).toBe(true);
    // The browser logs the refused metadata's answer, and nothing else.
    expect(errors).toEqual([expect.stringContaining('the server responded with a status of 422')]);
  });

  it('runs a test sign-in through a samlify identity provider and shows what it sent', async () => {
    const idp = await TestIdp.create();
    const testOrg = await createOrganization(system, 'Browser Test Sign-in Org');
    const { link } = await inviteAdmin(system, testOrg, 'tester.admin@example.com');
    const page = await visit(link);
    await page.getByLabel('Other SAML 2.0 provider').check();
    await page.getByLabel(en.metadata.paste).fill(idp.metadata());
    await page.getByRole('button', { name: en.metadata.save }).click();
    await page.getByTestId('connected').waitFor();
    const sp = {
      acs_url: await page.getByLabel(en.values.acsUrl).inputValue(),
      entity_id: await page.getByLabel(en.values.entityId).inputValue(),
    };
    const spMetadata = await (await fetch(await page.getByLabel(en.values.metadataUrl).inputValue())).text();
    // The identity provider's sign-in page: it checks our signed AuthnRequest and posts its signed answer to our ACS.
    await context.route(`${new URL(idp.ssoUrl).origin}/**`, async (route) => {
      const request = await idpReceivesAuthnRequest(idp, route.request().url(), spMetadata);
      const response = idp.loginResponse(sp, {
        nameId: 'tess@browser-test.example',
        inResponseTo: request.id,
        attributes: { firstName: 'Tess', lastName: 'Ter', department: 'IT' },
      });
      await route.fulfill({ status: 200, contentType: 'text/html', body: autoPost(sp.acs_url, response, request.relayState) });
    });

    await page.getByRole('button', { name: en.test.start }).click();
    await page.getByTestId('test-succeeded').waitFor();
    expect(new URL(page.url()).searchParams.get('sso_test')).toBe('success');
    const rows = await page.locator('table.attributes tbody tr').allInnerTexts();
    expect(rows).toEqual([
      'NameID\ttess@browser-test.example',
      'Email\ttess@browser-test.example',
      'firstName\tTess',
      'lastName\tTer',
      'department\tIT',
    ]);
    expect(await page.locator('pre.profile').innerText()).toContain('"given_name": "Tess"');
    expect((await system.request('GET', `/api/v2/org/${testOrg}/users/tess@browser-test.example`)).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('declines after confirmation, which ends the session; the link then shows that it was declined', async () => {
    const { link } = await inviteAdmin(system, org, 'declining.admin@example.com');
    const page = await visit(`${link}&lang=fr`);
    await page.getByRole('heading', { name: fr.title }).waitFor();
    await page.getByRole('button', { name: fr.charge.decline }).click();
    await page.getByRole('button', { name: fr.charge.confirmDecline }).click();
    await page.getByTestId('declined').waitFor();
    expect(await text(page, 'declined')).toContain(fr.charge.declinedText('Browser Onboarding Org'));
    const admin = await system.request('GET', `/api/v2/org/${org}/admins/declining.admin@example.com`);
    expect(admin.body.declined_to_be_in_charge_at).toEqual(expect.any(String));
    expect(await context.cookies(system.baseUrl + '/api/v2/admin-invitations/session')).toEqual([]);

    const again = await visit(link);
    await again.getByTestId('problem-declined').waitFor();
    expect(await again.getByRole('heading').innerText()).toBe(en.problems.declined.title);
  });

  it('explains a session the vendor ended, in both languages', async () => {
    const { link } = await inviteAdmin(system, org, 'revoked.admin@example.com');
    const page = await visit(link);
    await page.getByRole('heading', { name: en.title }).waitFor();
    // The page's own first calls (SP settings, the connection) are answered before the vendor ends
    // the session: otherwise they meet the ended session first and the page explains it at once.
    await page.waitForLoadState('networkidle');
    const revoked = await system.request('POST', `/api/v2/org/${org}/admins/revoked.admin@example.com/revoke-onboarding`);
    expect(revoked.status).toBe(200);
    await page.getByLabel('Okta').check();
    await page.getByLabel(en.metadata.paste).fill(readFileSync(join(fixtures, 'okta.xml'), 'utf8'));
    await page.getByRole('button', { name: en.metadata.save }).click();
    await page.getByTestId('problem-sessionEnded').waitFor();
    expect(await page.getByRole('heading').innerText()).toBe(en.problems.sessionEnded.title);
    const french = await visit(`${system.baseUrl}/onboarding/admin-invitation?lang=fr`);
    await french.getByTestId('problem-sessionEnded').waitFor();
    expect(await french.getByRole('heading').innerText()).toBe(fr.problems.sessionEnded.title);
    expect(await french.getByRole('alert').innerText()).toContain(fr.problems.sessionEnded.text);
  });

  it('explains a link without a token, a broken token and a replaced invitation', async () => {
    const none = await visit(`${system.baseUrl}/onboarding/admin-invitation`);
    await none.getByTestId('problem-missing').waitFor();
    expect(await none.getByRole('heading').innerText()).toBe(en.problems.missing.title);

    const broken = await visit(`${system.baseUrl}/onboarding/admin-invitation?token=broken&lang=fr`);
    await broken.getByTestId('problem-invalid').waitFor();
    expect(await broken.getByRole('heading').innerText()).toBe(fr.problems.invalid.title);

    const first = await inviteAdmin(system, org, 'replaced.admin@example.com');
    await inviteAdmin(system, org, 'replaced.admin@example.com');
    const replaced = await visit(first.link);
    await replaced.getByTestId('problem-invalid').waitFor();
  });
});

/** The identity provider's auto-submitted form (HTTP-POST binding). */
function autoPost(action: string, samlResponse: string, relayState: string | null) {
  const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, '&quot;')}">`;
  return `<!doctype html><html><body><form method="post" action="${action}">${field('SAMLResponse', samlResponse)}${
    relayState ? field('RelayState', relayState) : ''
  }</form><script>document.forms[0].submit()</script></body></html>`;
}
