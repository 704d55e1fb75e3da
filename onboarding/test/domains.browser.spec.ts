import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inviteAdmin } from '../../test/support/admin-invitations';
import { LocalDnsServer } from '../../test/support/dns-server';
import { createOrganization } from '../../test/support/identity-fixtures';
import { System } from '../../test/support/system';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';
import { collectErrors, launchChromium } from './support/chromium';

/**
 * The email domains step of the IT-admin onboarding page in Debian's chromium, against the real
 * system: the identity service reads TXT records from a DNS server this test runs on 127.0.0.1.
 */
describe('IT-admin onboarding page: email domains (chromium, all processes, a local DNS server)', () => {
  let dns: LocalDnsServer;
  let system: System;
  let browser: Browser;
  let context: BrowserContext;
  let errors: string[];

  beforeAll(async () => {
    dns = await LocalDnsServer.start();
    [system, browser] = await Promise.all([
      System.start({ processEnv: { identity: { SESAME_DNS_SERVERS: dns.server } } }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await dns?.stop();
  });
  afterEach(async () => {
    await context.close();
    expect(errors).toEqual([]);
  });

  const open = async (locale: string, org: string, email: string, allowed_setups: string[]): Promise<Page> => {
    context = await browser.newContext({ locale, viewport: { width: 1200, height: 900 } });
    errors = collectErrors(context);
    const { link } = await inviteAdmin(system, org, email, { allowed_setups });
    const page = await context.newPage();
    await page.goto(link);
    return page;
  };
  /** The errors the browser logged so far, once it logged one (its console event may follow the page's update). */
  const loggedErrors = async () => {
    for (let attempt = 0; attempt < 50 && errors.length === 0; attempt++) await new Promise((done) => setTimeout(done, 100));
    return errors.splice(0);
  };
  const value = (page: Page, id: string) => page.locator(`[id="${id}"]`).inputValue();

  it('shows the TXT record of each domain in English and verifies it with "Verify now"', async () => {
    const org = await createOrganization(system, 'Browser Domains', {
      allowed_email_domains: ['browser-domains.example', 'second.browser-domains.example'],
    });
    const page = await open('en-US', org, 'domains.admin@example.com', ['domains']);
    const step = page.getByTestId('domains-step');
    await step.getByRole('heading', { name: en.domains.title }).waitFor();
    // Invited for domains only: the page is about them, with no SSO step.
    await page.getByRole('heading', { level: 1, name: en.domains.title }).waitFor();
    expect(await page.getByRole('heading', { name: en.steps.provider }).count()).toBe(0);

    const first = 'domain-browser-domains.example';
    await page.getByTestId(`${first}-status`).waitFor();
    expect(await page.getByTestId(`${first}-status`).innerText()).toBe(en.domains.status.unverified);
    expect(await page.getByTestId('domain-second.browser-domains.example-status').innerText()).toBe(en.domains.status.unverified);

    await page.getByTestId(`${first}-start`).click();
    await page.getByTestId(`${first}-verify`).waitFor();
    expect(await page.getByTestId(`${first}-status`).innerText()).toBe(en.domains.status.pending);
    expect(await value(page, `${first}-record-type`)).toBe('TXT');
    const name = await value(page, `${first}-record-name`);
    const record = await value(page, `${first}-record-value`);
    expect(name).toBe('_sesame-verification.browser-domains.example');
    expect(record).toMatch(/^sesame-verification=[\w-]{22}$/);

    await page.getByRole('button', { name: en.domains.verify }).click();
    await page.getByTestId(`${first}-refused`).waitFor();
    expect(await page.getByTestId(`${first}-refused`).innerText()).toBe(en.domains.failures.domain_verification_record_not_found);
    // The browser logs the refused check's answer, and nothing else.
    expect(await loggedErrors()).toEqual([expect.stringContaining('the server responded with a status of 422')]);

    dns.publishTxt(name, record);
    await page.getByRole('button', { name: en.domains.verify }).click();
    await page.getByTestId(`${first}-verified`).waitFor();
    expect(await page.getByTestId(`${first}-status`).innerText()).toBe(en.domains.status.verified);
    expect(await page.getByTestId(`${first}-refused`).count()).toBe(0);

    // The page opened again in this browser (its session) shows what the service holds.
    const again = await context.newPage();
    await again.goto(page.url());
    await again.getByTestId(`${first}-verified`).waitFor();
    expect(await again.getByTestId('domain-second.browser-domains.example-status').innerText()).toBe(
      en.domains.status.unverified,
    );
  });

  it('shows the domains step in French beside the SSO step, and says when the record holds another value', async () => {
    const org = await createOrganization(system, 'Domaines Navigateur', {
      allowed_email_domains: ['domaines-navigateur.example'],
    });
    const page = await open('fr-FR', org, 'domaines@example.com', ['sso', 'domains']);
    await page.getByTestId('domains-step').getByRole('heading', { name: fr.domains.title }).waitFor();
    await page.getByRole('heading', { name: fr.steps.provider }).waitFor();
    const row = 'domain-domaines-navigateur.example';
    await page.getByRole('button', { name: fr.domains.start }).click();
    await page.getByRole('button', { name: fr.domains.verify }).waitFor();
    for (const label of [fr.domains.recordType, fr.domains.recordName, fr.domains.recordValue])
      await page.getByText(label, { exact: true }).waitFor();
    const name = await value(page, `${row}-record-name`);
    dns.publishTxt(name, 'sesame-verification=une-autre-valeur');
    await page.getByRole('button', { name: fr.domains.verify }).click();
    await page.getByTestId(`${row}-refused`).waitFor();
    expect(await page.getByTestId(`${row}-refused`).innerText()).toBe(fr.domains.failures.domain_verification_record_mismatch);
    expect(await loggedErrors()).toEqual([expect.stringContaining('the server responded with a status of 422')]);

    dns.publishTxt(name, await value(page, `${row}-record-value`));
    await page.getByRole('button', { name: fr.domains.verify }).click();
    await page.getByTestId(`${row}-verified`).waitFor();
    expect(await page.getByTestId(`${row}-status`).innerText()).toBe(fr.domains.status.verified);
  });

  it('shows no domains step when the invitation does not allow it', async () => {
    const org = await createOrganization(system, 'Browser No Domains', { allowed_email_domains: ['no-domains.example'] });
    const page = await open('en-US', org, 'sso.only@example.com', ['sso']);
    await page.getByRole('heading', { name: en.steps.provider }).waitFor();
    expect(await page.getByTestId('domains-step').count()).toBe(0);
  });
});
