import type { Browser, BrowserContext, Page } from 'playwright-core';
import { System } from '../../test/support/system';
import { createOrganization } from '../../test/support/identity-fixtures';
import { inviteAdmin } from '../../test/support/admin-invitations';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';
import { collectErrors, launchChromium } from './support/chromium';

const scimUser = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  active: true,
  emails: [{ value: userName, type: 'work', primary: true }],
});

/** The directory-sync step of the IT-admin onboarding page in Debian's chromium, against the real system. */
describe('IT-admin onboarding page: directory sync (chromium, all processes)', () => {
  let system: System;
  let browser: Browser;
  let org: string;
  let context: BrowserContext;
  let errors: string[];

  beforeAll(async () => {
    [system, browser] = await Promise.all([System.start(), launchChromium()]);
    org = await createOrganization(system, 'Browser Directory Org');
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });
  afterEach(async () => {
    await context.close();
    expect(errors).toEqual([]);
  });

  const open = async (locale: string, email: string, allowed_setups: string[]): Promise<Page> => {
    context = await browser.newContext({ locale, viewport: { width: 1200, height: 900 } });
    errors = collectErrors(context);
    const { link } = await inviteAdmin(system, org, email, { allowed_setups });
    const page = await context.newPage();
    await page.goto(link);
    return page;
  };
  const scim = (url: string, token: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify(body),
    });
  const value = (page: Page, id: string) => page.locator(`#${id}`).inputValue();
  /** Refreshes the status until `testId` shows `expected` (SCIM activity is recorded beside the request). */
  const statusShows = async (page: Page, testId: string, expected: (text: string) => boolean) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      if (expected(await page.getByTestId(testId).innerText())) return;
      await page.getByTestId('status-refresh').click();
      await page.waitForTimeout(200);
    }
    throw new Error(`${testId} never showed what was expected: ${await page.getByTestId(testId).innerText()}`);
  };

  it('connects a directory in English: SCIM URL and a token shown once, the steps of each directory, live status, rotation', async () => {
    const page = await open('en-US', 'directory.admin@example.com', ['directory_sync']);
    const directory = page.getByTestId('directory');
    await directory.getByRole('heading', { name: en.directory.title }).waitFor();
    // Invited for directory sync only: no SSO step.
    await page.getByRole('heading', { level: 1, name: en.directory.pageTitle }).waitFor();
    expect(await page.getByRole('heading', { name: en.steps.provider }).count()).toBe(0);

    await directory.getByLabel('Okta').check();
    await page.getByRole('button', { name: en.directory.create }).click();
    await page.getByTestId('token-once').waitFor();
    expect(await page.getByTestId('token-once').innerText()).toBe(en.directory.tokenOnce);
    const baseUrl = await value(page, 'scim-base-url');
    const token = await value(page, 'scim-token');
    expect(baseUrl).toMatch(new RegExp(`^${system.baseUrl}/scim/v2/[0-9a-f-]{36}$`));
    expect(token).toMatch(/^scim_/);
    expect(await page.getByTestId('directory-instructions').locator('li').allInnerTexts()).toEqual(en.directoryInstructions.okta);

    for (const [provider, name] of [
      ['azure_ad', 'Microsoft Entra ID'],
      ['onelogin', 'OneLogin'],
      ['jumpcloud', 'JumpCloud'],
      ['generic', en.directory.genericProvider],
      ['okta', 'Okta'],
    ] as const) {
      await directory.getByLabel(name).check();
      await page.getByRole('heading', { name: en.directory.instructions(name) }).waitFor();
      expect(await page.getByTestId('directory-instructions').locator('li').allInnerTexts()).toEqual(
        en.directoryInstructions[provider],
      );
    }

    await page.getByTestId('last-request').waitFor();
    expect(await page.getByTestId('last-request').innerText()).toBe(en.directory.noRequest);
    expect((await scim(baseUrl, token, '/Users', scimUser('ada@browser-directory.example'))).status).toBe(201);
    await statusShows(page, 'users-provisioned', (text) => text === '1');
    expect(await page.getByTestId('last-request').innerText()).not.toBe(en.directory.noRequest);
    expect(await page.getByTestId('last-error').innerText()).toBe(en.directory.noError);

    // After a reload the token is never shown again: only its last characters.
    await page.reload();
    await page.getByTestId('token-hint').waitFor();
    expect(await page.getByTestId('token-hint').innerText()).toBe(en.directory.tokenHint(token.slice(-4)));
    expect(await page.content()).not.toContain(token);

    await page.getByTestId('rotate').click();
    await page.getByTestId('rotate-confirm').click();
    await page.getByTestId('token-once').waitFor();
    const rotated = await value(page, 'scim-token');
    expect(rotated).not.toBe(token);
    expect((await scim(baseUrl, token, '/Users', scimUser('old.token@browser-directory.example'))).status).toBe(401);
    expect((await scim(baseUrl, rotated, '/Users', scimUser('grace@browser-directory.example'))).status).toBe(201);
    await statusShows(page, 'users-provisioned', (text) => text === '2');
    await statusShows(page, 'last-error', (text) => text.includes('401'));
  });

  it('shows the directory step in French beside the SSO step when the invitation allows both', async () => {
    const other = await createOrganization(system, 'Organisation Annuaire');
    const page = await (async () => {
      context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 1200, height: 900 } });
      errors = collectErrors(context);
      const { link } = await inviteAdmin(system, other, 'annuaire@example.com', { allowed_setups: ['sso', 'directory_sync'] });
      const opened = await context.newPage();
      await opened.goto(link);
      return opened;
    })();
    const directory = page.getByTestId('directory');
    await directory.getByRole('heading', { name: fr.directory.title }).waitFor();
    await page.getByRole('heading', { name: fr.steps.provider }).waitFor();
    await directory.getByLabel(fr.directory.genericProvider).check();
    await page.getByRole('button', { name: fr.directory.create }).click();
    await page.getByTestId('token-once').waitFor();
    expect(await page.getByTestId('token-once').innerText()).toBe(fr.directory.tokenOnce);
    expect(await page.getByTestId('directory-instructions').locator('li').allInnerTexts()).toEqual(
      fr.directoryInstructions.generic,
    );
    await page.getByRole('heading', { name: fr.directory.status }).waitFor();
    await page.getByTestId('last-request').waitFor();
    expect(await page.getByTestId('last-request').innerText()).toBe(fr.directory.noRequest);
    const baseUrl = await value(page, 'scim-base-url');
    const token = await value(page, 'scim-token');
    const refused = await scim(baseUrl, token, '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] });
    expect(refused.status).toBe(400);
    const detail = ((await refused.json()) as { detail: string }).detail;
    await statusShows(page, 'last-error', (text) => text.endsWith(` : 400 ${detail}`));
    expect(await page.getByTestId('users-provisioned').innerText()).toBe('0');
    for (const label of [fr.directory.lastRequest, fr.directory.users, fr.directory.groups, fr.directory.lastError])
      await page.getByText(label, { exact: true }).waitFor();
  });
});
