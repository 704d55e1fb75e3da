import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { System, repoRoot } from '../support/system';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { ReceivedDelivery } from '../support/webhook-receiver';
import { eventually } from '../support/identity-fixtures';

type Sdk = typeof import('../../sdk/node/src');

/**
 * `@sesame/node` as published: `npm pack` of the built workspace, unpacked under test-results (so that
 * its dependency, jose, resolves from the repository's node_modules), and its `main` required by Node itself.
 */
function packSdk(): { sdk: Sdk; files: string[] } {
  const dir = join(repoRoot, 'test-results/e2e/sdk-pack');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', '-w', 'sdk/node', '--json', '--pack-destination', dir], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  execFileSync('tar', ['-xzf', join(dir, packed!.filename), '-C', dir]);
  return { sdk: createRequire(__filename)(join(dir, 'package/dist/index.js')) as Sdk, files: packed!.files.map((f) => f.path) };
}

const webhookEnv = { SESAME_WEBHOOK_BACKOFF_BASE_MS: '200', SESAME_WEBHOOK_POLL_MS: '100' };

describe('@sesame/node against the running system (packed with npm pack)', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let sdk: Sdk;
  let files: string[];
  let sesame: InstanceType<Sdk['Sesame']>;
  let org: string;

  beforeAll(async () => {
    ({ sdk, files } = packSdk());
    receiver = await WebhookReceiver.start();
    // One password challenge per email every 2 s: the retry test meets a real 429 with Retry-After.
    system = await System.start({
      processEnv: { webhooks: webhookEnv, gateway: { SESAME_RATE_LIMIT_PASSWORD_CHALLENGE_EMAIL: '1/2' } },
    });
    const { clientId, clientSecret } = system.apiKey;
    sesame = new sdk.Sesame({ baseUrl: system.baseUrl, clientId, clientSecret });
    org = (await sesame.organizations.create({ name: 'Sdk Corp', allowed_email_domains: ['sdk.test'] } as never)).domain;
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  it('is published with its compiled entry, its types and its README, without sources or tests', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(existsSync(join(repoRoot, 'test-results/e2e/sdk-pack/package/dist/generated/openapi.d.ts'))).toBe(true);
  });

  it('manages organizations and users, and walks a list of more than one page', async () => {
    expect(await sesame.organizations.get(org)).toMatchObject({ domain: org, name: 'Sdk Corp' });
    expect(await sesame.organizations.update(org, { name: 'Sdk Corporation' } as never)).toMatchObject({
      name: 'Sdk Corporation',
    });
    const created = [];
    for (const name of ['ada', 'grace', 'linus'])
      created.push(await sesame.users.create(org, { email: `${name}@sdk.test` } as never));
    const pages = [];
    for await (const page of sesame.users.list(org, { per_page: 2 }).pages()) pages.push(page.data.length);
    expect(pages).toEqual([2, 1]);
    const emails: string[] = [];
    for await (const user of sesame.users.list(org, { per_page: 2 })) emails.push(user.email);
    expect(emails.sort()).toEqual(['ada@sdk.test', 'grace@sdk.test', 'linus@sdk.test']);
    expect(await sesame.users.get(org, 'grace@sdk.test')).toMatchObject({ id: created[1]!.id });
    await sesame.userMetakeys.create({ name: 'plan' });
    expect(await sesame.userMetakeys.list().toArray()).toEqual([expect.objectContaining({ name: 'plan' })]);
    await sesame.users.addMetadata(org, created[0]!.id, { key: 'plan', value: 'gold' } as never);
    expect(await sesame.users.get(org, created[0]!.id)).toMatchObject({ metadata: { plan: 'gold' } });
    await sesame.users.delete(org, created[2]!.id);
    expect(await sesame.users.list(org).toArray()).toHaveLength(2);
  });

  it('throws a typed 404 carrying the type, message, doc urls and correlation id of the answer', async () => {
    const error = await sesame
      .request('get', '/api/v2/organizations/{org_domain}', {
        params: { org_domain: 'no-such-org' },
        headers: { 'x-correlation-id': 'sdk-e2e-404' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.SesameApiError);
    expect(error).toMatchObject({
      status: 404,
      type: 'resource_not_found',
      message: 'Resource Not Found',
      docUrls: ['http://localhost:8000/api'],
      fieldErrors: {},
      correlationId: 'sdk-e2e-404',
    });
  });

  it('throws a typed 422 with the field errors the API answered', async () => {
    const raw = await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: 'not-an-email' } });
    expect(raw.status).toBe(422);
    const error = (await sesame.users.create(org, { email: 'not-an-email' } as never).catch((e: unknown) => e)) as InstanceType<
      Sdk['SesameApiError']
    >;
    expect(error).toBeInstanceOf(sdk.SesameApiError);
    expect(error.status).toBe(422);
    expect(error.type).toBe('invalid_fields');
    expect(error.fieldErrors).toEqual(raw.body.errors);
    expect(Object.keys(error.fieldErrors)).toContain('email');
    expect(error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('covers admins, redirect URIs, the SSO connection, the directory sync, relays and the sign-in connections', async () => {
    await sesame.admins.invite(org, { email: 'it@sdk.test' });
    expect(await sesame.admins.list(org).toArray()).toEqual([expect.objectContaining({ email: 'it@sdk.test' })]);
    const uri = await sesame.redirectUris.create({ url: 'https://app.sdk.test/callback' });
    expect(await sesame.redirectUris.get(uri.id)).toMatchObject({ url: 'https://app.sdk.test/callback' });
    expect((await sesame.redirectUris.list().toArray()).map((u) => u.id)).toContain(uri.id);
    await sesame.ssoConnections.create(org, {} as never);
    expect(await sesame.ssoConnections.get(org)).toMatchObject({ active: expect.any(Boolean) });
    await sesame.directorySyncs.create(org, {} as never);
    expect(await sesame.directorySyncs.get(org)).toMatchObject({ active: expect.any(Boolean) });
    const partner = (await sesame.organizations.create({ name: 'Sdk Partner' } as never)).domain;
    const relay = await sesame.relays.create({
      partner_domain: partner,
      partner_redirect_uri: 'https://app.sdk.test/callback',
    } as never);
    expect(await sesame.relays.get(relay.id)).toMatchObject({ id: relay.id });
    await sesame.magicLinks.createConnection(org, {} as never);
    expect(await sesame.magicLinks.getConnection(org)).toMatchObject({ active: expect.any(Boolean) });
    expect(await sesame.totp.getConnection(org)).toMatchObject({ active: false, method: 'totp_mobile_app' });
    expect(await sesame.totp.updateConnection(org, { active: true } as never)).toMatchObject({ active: true });
  });

  it("signs a user in with a password, exchanges the code with PKCE and verifies the tokens with the tenant's JWKS", async () => {
    const email = 'pkce@sdk.test';
    const plain_text = 'correct horse battery staple 42';
    await sesame.passwords.create({ org_domain: org, user_email: email, plain_text });
    const pkce = sdk.createPkce();
    const signIn = await sesame.passwords.challenge({
      org_domain: org,
      user_email: email,
      plain_text,
      code_challenge: pkce.codeChallenge,
      code_challenge_method: pkce.codeChallengeMethod,
    } as never);
    const code = (signIn as { code: string }).code;
    const { clientId } = system.apiKey;
    const tokens = await sdk.exchangeAuthorizationCode({
      baseUrl: system.baseUrl,
      code,
      clientId,
      codeVerifier: pkce.codeVerifier,
    });
    const verify = sdk.createTokenVerifier({ baseUrl: system.baseUrl, organization: org, audience: clientId });
    expect(await verify(tokens.id_token!)).toMatchObject({ email, iss: `${system.baseUrl}/t/${org}`, aud: clientId });
    await expect(verify(tokens.access_token)).resolves.toMatchObject({ iss: `${system.baseUrl}/t/${org}` });
    const otherTenant = sdk.createTokenVerifier({ baseUrl: system.baseUrl, organization: 'sesame', audience: clientId });
    await expect(otherTenant(tokens.id_token!)).rejects.toThrow('unexpected "iss" claim value');
    const again = await sdk
      .exchangeAuthorizationCode({ baseUrl: system.baseUrl, code, clientId, codeVerifier: pkce.codeVerifier })
      .catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 400, type: 'invalid_grant' });
  });

  it('receives a webhook delivery that verifyWebhook accepts, and refuses it with another key', async () => {
    const webhook = await sesame.webhooks.create({
      name: 'sdk',
      event_codes: ['user.created'],
      target_url: `${receiver.url}/sdk`,
    } as never);
    expect(await sesame.webhooks.list().toArray()).toEqual([expect.objectContaining({ id: webhook.id })]);
    const user = await sesame.users.create(org, { email: 'hooked@sdk.test' } as never);
    await eventually(async () => receiver.to('/sdk').length > 0, 60_000);
    const [delivery] = receiver.to('/sdk') as [ReceivedDelivery];
    const headers = delivery.headers as Record<string, string>;
    expect(sdk.verifyWebhook(webhook.signature_key!, delivery.body, headers)).toMatchObject({
      code: 'user.created',
      data: { user: { id: user.id } },
    });
    const rotated = await sesame.webhooks.rotateSignatureKey(webhook.id);
    expect(() => sdk.verifyWebhook((rotated as { signature_key: string }).signature_key, delivery.body, headers)).toThrow(
      'No matching signature in webhook-signature',
    );
    expect((await sesame.webhookEvents.list({ webhook_id: webhook.id } as never).toArray()).length).toBeGreaterThan(0);
    await sesame.webhooks.delete(webhook.id);
  });

  it("retries a 429 of the gateway's rate limit after its Retry-After (a client without retries throws it)", async () => {
    const user_email = 'retry@sdk.test';
    const plain_text = 'correct horse battery staple 43';
    await sesame.passwords.create({ org_domain: org, user_email, plain_text });
    const { clientId, clientSecret } = system.apiKey;
    const once = new sdk.Sesame({ baseUrl: system.baseUrl, clientId, clientSecret, retry: { maxAttempts: 1 } });
    const signIn = { org_domain: org, user_email, plain_text } as never;
    expect(await once.passwords.challenge(signIn)).toMatchObject({ 'valid?': true });
    const refused = await once.passwords.challenge(signIn).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, type: 'rate_limited', correlationId: expect.any(String) });
    const started = Date.now();
    expect(await sesame.passwords.challenge(signIn)).toMatchObject({ 'valid?': true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('lists the events feed page by page, exports a time range as parsed lines, and replays a webhook', async () => {
    const rangeStart = new Date().toISOString();
    const organization = await sesame.organizations.create({
      name: 'Sdk Feed',
      allowed_email_domains: ['feed.sdk.test'],
    } as never);
    const emails = ['a', 'b', 'c'].map((name) => `${name}@feed.sdk.test`);
    for (const email of emails) await sesame.users.create(organization.domain, { email } as never);
    const query = { organization_id: organization.id, events: 'user.created' } as never;
    await eventually(async () => (await sesame.events.list(query).toArray()).length === emails.length, 60_000);

    const pages: number[] = [];
    for await (const page of sesame.events.list({ ...(query as object), limit: 2 } as never).pages())
      pages.push(page.data.length);
    expect(pages).toEqual([2, 1]);
    const listed = await sesame.events.list(query).toArray();
    expect(listed.map((event) => (event.data as { user: { email: string } }).user.email)).toEqual(emails);
    expect(listed[0]).toMatchObject({ code: 'user.created', organization_id: organization.id, environment: 'sandbox' });

    const exported = [];
    const range = { ...(query as object), range_start: rangeStart, range_end: new Date(Date.now() + 60_000).toISOString() };
    for await (const event of sesame.events.export(range as never)) exported.push(event);
    expect(exported).toEqual(listed);

    const webhook = await sesame.webhooks.create({
      name: 'sdk replay',
      event_codes: ['user.created'],
      target_url: `${receiver.url}/sdk-replay`,
      organization_domain: organization.domain,
    } as never);
    const replayed = await sesame.webhooks.replay(webhook.id, { limit: 2 });
    expect(replayed.list_metadata.has_more).toBe(true);
    const rest = await sesame.webhooks.replay(webhook.id, { after: replayed.list_metadata.after, limit: 10 });
    expect(rest.list_metadata.has_more).toBe(false);
    const jobs = [...replayed.data, ...rest.data] as { args: { id: string } }[];
    expect(jobs.map((job) => job.args.id)).toEqual(listed.map((event) => event.id));
    await eventually(async () => receiver.to('/sdk-replay').length === emails.length, 60_000);
    const ids = receiver.to('/sdk-replay').map((delivery) => (delivery.headers as Record<string, string>)['webhook-id']);
    expect(ids.sort()).toEqual(listed.map((event) => event.id).sort());
    await sesame.webhooks.delete(webhook.id);
  });
});
