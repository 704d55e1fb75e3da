import type { Browser, BrowserContext, Page } from 'playwright-core';
import { System } from '../../test/support/system';
import { createOrganization } from '../../test/support/identity-fixtures';
import { inviteAdmin } from '../../test/support/admin-invitations';
import { startOidcProcess } from '../../test/support/oidc-providers';
import type { OidcProcess } from '../../test/support/oidc-providers';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';
import { collectErrors, launchChromium } from './support/chromium';

const clientSecret = 'browser-client-secret-0123456789';

/**
 * The OIDC choice of the onboarding page's SSO step in Debian's chromium, against the real system,
 * with oidc-provider (a real OpenID provider in its own process) for the test sign-in.
 */
describe('IT-admin onboarding page: OIDC connection (chromium, all processes, oidc-provider)', () => {
  let system: System;
  let browser: Browser;
  let provider: OidcProcess;
  let org: string;
  let context: BrowserContext;
  let errors: string[];
  const redirectUri = () => `${system.baseUrl}/sso/oidc/${org}_sandbox/callback`;

  beforeAll(async () => {
    [system, browser] = await Promise.all([System.start(), launchChromium()]);
    org = await createOrganization(system, 'Browser OIDC Org', { allowed_email_domains: ['browser-oidc.test'] });
    provider = await startOidcProcess('oidc-provider.mjs', {
      CLIENT_ID: 'sesame-browser',
      CLIENT_SECRET: clientSecret,
      REDIRECT_URI: redirectUri(),
      EMAIL_DOMAIN: 'browser-oidc.test',
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await provider?.stop();
    await system?.stop();
  });
  afterEach(async () => {
    await context.close();
  });

  const open = async (lang: 'en' | 'fr', email: string, organization = org): Promise<Page> => {
    context = await browser.newContext({ locale: lang, viewport: { width: 1200, height: 900 } });
    errors = collectErrors(context);
    const { link } = await inviteAdmin(system, organization, email);
    const page = await context.newPage();
    await page.goto(`${link}&lang=${lang}`);
    return page;
  };

  it('in English: the OIDC steps of each provider, our redirect URI, refused then saved client ("secret set"), a test sign-in', async () => {
    const page = await open('en', 'oidc.browser@example.com');
    await page.getByLabel(en.protocol.oidc).check();
    for (const [id, name] of [
      ['azure_ad', 'Microsoft Entra ID'],
      ['okta', 'Okta'],
      ['google', 'Google Workspace'],
      ['custom_saml', 'Other OpenID Connect provider'],
    ] as const) {
      await page.getByLabel(name).check();
      await page.getByRole('heading', { name: en.steps.instructions(name) }).waitFor();
      expect(await page.getByTestId('instructions').locator('li').allInnerTexts()).toEqual(en.oidcInstructions[id]);
    }
    await page.getByLabel('Okta').check();
    expect(await page.getByLabel(en.oidc.redirectUri).inputValue()).toBe(redirectUri());
    expect(await page.getByLabel(en.values.acsUrl).count()).toBe(0);

    await page.getByLabel(en.oidc.issuer).fill('https://idp.example.com/?tenant=1');
    await page.getByLabel(en.oidc.clientId).fill('sesame-browser');
    await page.getByRole('button', { name: en.oidc.save }).click();
    await page.getByTestId('oidc-errors').waitFor();
    expect(await page.getByTestId('oidc-errors').innerText()).toBe(
      `${en.oidc.refused}\n\noidc_issuer must not have a query or fragment`,
    );
    expect(await page.getByTestId('secret-set').count()).toBe(0);

    await page.getByLabel(en.oidc.issuer).fill(provider.issuer);
    await page.getByLabel(en.oidc.clientSecret).fill(clientSecret);
    await page.getByRole('button', { name: en.oidc.save }).click();
    await page.getByTestId('secret-set').waitFor();
    expect(await page.getByTestId('secret-set').innerText()).toBe(en.oidc.secretSet);
    expect(await page.getByLabel(en.oidc.clientSecret).inputValue()).toBe('');
    expect((await system.request('GET', `/api/v2/org/${org}/sso-connection`)).body).toMatchObject({
      type: 'oidc',
      provider_type: 'okta',
      oidc_config: { issuer: provider.issuer, client_id: 'sesame-browser', client_secret_set: true },
    });

    // The test sign-in: oidc-provider's login and consent pages, then back to the page with what it sent.
    await page.getByRole('button', { name: en.test.start }).click();
    await page.waitForURL((url) => url.origin === new URL(provider.issuer).origin);
    await page.locator('input[name="login"]').fill('tess.tester');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.getByTestId('test-succeeded').waitFor();
    expect(new URL(page.url()).searchParams.get('sso_test')).toBe('success');
    expect(await page.locator('pre.profile').innerText()).toContain('"given_name": "Tess"');
    // On our pages the browser logs the refused client's answer, and nothing else (oidc-provider's
    // development login pages load resources it does not serve).
    expect(errors.filter((error) => error.startsWith(system.baseUrl))).toEqual([
      expect.stringContaining('the server responded with a status of 422'),
    ]);
  });

  it('in French: a saved OIDC client shown on opening ("secret set"), blank fields refused', async () => {
    const french = await createOrganization(system, 'Navigateur OIDC');
    const saved = await system.request('POST', `/api/v2/org/${french}/sso-connection`, {
      body: { type: 'oidc', provider_type: 'okta', oidc_issuer: provider.issuer, oidc_client_id: 'fr', oidc_client_secret: 'x' },
    });
    expect(saved.status).toBe(201);
    const page = await open('fr', 'oidc.francais@example.com', french);
    // The page opens on OIDC, with its provider and "secret set".
    await page.getByTestId('secret-set').waitFor();
    expect(await page.getByLabel(fr.protocol.oidc).isChecked()).toBe(true);
    expect(await page.getByLabel('Okta').isChecked()).toBe(true);
    expect(await page.getByTestId('secret-set').innerText()).toBe(fr.oidc.secretSet);
    expect(await page.getByLabel(fr.oidc.issuer).inputValue()).toBe(provider.issuer);
    expect(await page.getByTestId('instructions').locator('li').allInnerTexts()).toEqual(fr.oidcInstructions.okta);
    expect(await page.getByLabel(fr.oidc.redirectUri).inputValue()).toBe(`${system.baseUrl}/sso/oidc/${french}_sandbox/callback`);
    await page.getByRole('button', { name: fr.test.start }).waitFor();

    await page.getByLabel(fr.oidc.issuer).fill('');
    await page.getByLabel(fr.oidc.clientId).fill('');
    await page.getByRole('button', { name: fr.oidc.save }).click();
    await page.getByTestId('oidc-errors').waitFor();
    expect(await page.getByTestId('oidc-errors').innerText()).toBe(
      `${fr.oidc.refused}\n\noidc_issuer can't be blank\noidc_client_id can't be blank`,
    );
    expect(errors).toEqual([expect.stringContaining('the server responded with a status of 422')]);
  });
});
