import { defaultScopes } from '@sesame/contracts';
import { passwordAggregate, passwordCodeAggregate } from './password.aggregates';
import { hashSecret } from '@sesame/platform';
import type { MailMessage } from '@sesame/platform';
import { createPasswordHandler, createPasswordRequestHandler, issuePasswordCode } from './password-sign-in.handlers';
import { passwordKit } from './password.spec-kit';

describe('setting a password', () => {
  it('asks the breach service about a password the shipped lists accept, when one is configured', async () => {
    const kit = await passwordKit();
    kit.addUser('ada@acme.com');
    const asked: string[] = [];
    kit.deps.breachRange = { isBreached: async (plainText) => (asked.push(plainText), plainText.startsWith('leaked')) };
    const set = createPasswordHandler(kit.deps);
    const body = (plain_text: string) => ({ body: { org_domain: 'acme', user_email: 'ada@acme.com', plain_text } }) as never;
    await expect(set(body('leaked purple elephants at noon'), kit.context)).rejects.toMatchObject({
      error: { kind: 'fields', fields: { plain_text: ['has appeared in a data breach'] } },
    });
    expect(await set(body('quiet purple elephants at noon'), kit.context)).toMatchObject({ ok: true, status: 201 });
    const administrator = kit.contextWith([...defaultScopes, 'passwords:write']);
    await expect(set(body('password123'), administrator)).rejects.toMatchObject({
      error: { fields: { plain_text: ['is among the most common passwords'] } },
    });
    expect(asked).toEqual(['leaked purple elephants at noon', 'quiet purple elephants at noon']);
  });

  it('marks the email verified when the password is set with a reset code mailed only to it, not with a renewal code', async () => {
    const kit = await passwordKit();
    const set = createPasswordHandler(kit.deps);
    const withCode = (password_code: string) =>
      ({ body: { password_code, plain_text: 'quiet purple elephants at noon' } }) as never;
    const production = kit.contextWith(undefined, 'production');
    const inProduction = (email: string) => kit.addUser(email, { email_verified: false, __environment__: 'production' });

    const renewing = inProduction('grace@acme.com');
    const renewal = await issuePasswordCode(
      kit.deps,
      { user: renewing, organizationId: kit.organization.id },
      'renew',
      null,
      production,
    );
    expect(await set(withCode(renewal.code), production)).toMatchObject({ ok: true, status: 201 });
    expect(kit.users.get(renewing.id)?.email_verified).toBe(false);
    expect(kit.modified).toEqual([]);

    const resetting = inProduction('ada@acme.com');
    const reset = await issuePasswordCode(
      kit.deps,
      { user: resetting, organizationId: kit.organization.id },
      'reset',
      'https://app.acme.com/reset',
      production,
    );
    expect(await set(withCode(reset.code), production)).toMatchObject({ ok: true, status: 201 });
    expect(kit.users.get(resetting.id)?.email_verified).toBe(true);
    expect(kit.modified).toEqual([
      { organization_domain: 'acme', environment: 'production', id: resetting.id, email_verified: true },
    ]);

    // Already verified: identity is not asked again.
    const again = await issuePasswordCode(
      kit.deps,
      { user: kit.users.get(resetting.id) as never, organizationId: kit.organization.id },
      'reset',
      null,
      production,
    );
    expect(await set(withCode(again.code), production)).toMatchObject({ ok: true, status: 201 });
    expect(kit.modified).toHaveLength(1);

    // The address changed after the link was mailed: the link proves the old one, not the new one.
    const moving = inProduction('linus@acme.com');
    const moved = await issuePasswordCode(
      kit.deps,
      { user: moving, organizationId: kit.organization.id },
      'reset',
      null,
      production,
    );
    kit.users.set(moving.id, { ...moving, email: 'linus@elsewhere.example' });
    expect(await set(withCode(moved.code), production)).toMatchObject({ ok: true, status: 201 });
    expect(kit.users.get(moving.id)?.email_verified).toBe(false);

    // The sandbox answers the reset link to the API caller as well: it proves nothing there.
    const sandboxUser = kit.addUser('margaret@acme.com', { email_verified: false });
    const sandboxReset = await issuePasswordCode(
      kit.deps,
      { user: sandboxUser, organizationId: kit.organization.id },
      'reset',
      null,
      kit.context,
    );
    expect(await set(withCode(sandboxReset.code), kit.context)).toMatchObject({ ok: true, status: 201 });
    expect(kit.users.get(sandboxUser.id)?.email_verified).toBe(false);
    expect(kit.modified).toHaveLength(1);
  });

  it("records a password code, its use and the password it sets under the organization's tenant (on the envelope)", async () => {
    const kit = await passwordKit();
    const user = kit.addUser('envelope@acme.com');
    const reset = await issuePasswordCode(kit.deps, { user, organizationId: kit.organization.id }, 'reset', null, kit.context);
    const set = createPasswordHandler(kit.deps);
    const body = { password_code: reset.code, plain_text: 'quiet purple elephants at noon' };
    expect(await set({ body } as never, kit.context)).toMatchObject({ ok: true, status: 201 });
    const tenant = { organization_id: kit.organization.id, environment: 'sandbox' };
    const envelopes = async (stream: string) =>
      (await kit.eventStore.readStream(stream)).events.map((event) => [event.type, event.metadata.tenant]);
    expect(await envelopes(passwordCodeAggregate.stream(hashSecret(reset.code)))).toEqual([
      ['PasswordCodeIssued', tenant],
      ['PasswordCodeUsed', tenant],
    ]);
    expect(await envelopes(passwordAggregate.stream(user.id))).toEqual([['PasswordSet', tenant]]);
  });

  it('refuses a reset code, before using it, once the organization no longer allows passwords', async () => {
    const kit = await passwordKit();
    const set = createPasswordHandler(kit.deps);
    const user = kit.addUser('ada@acme.com');
    const reset = await issuePasswordCode(kit.deps, { user, organizationId: kit.organization.id }, 'reset', null, kit.context);
    kit.organization.allowed_authn_connections = ['sso', 'magic_link'];
    const before = await kit.eventStore.headPosition();
    const body = { body: { password_code: reset.code, plain_text: 'quiet purple elephants at noon' } } as never;
    await expect(set(body, kit.context)).rejects.toMatchObject({
      error: { kind: 'error', code: 'authn_connection_not_allowed' },
    });
    expect(await kit.eventStore.headPosition()).toBe(before);
    kit.organization.allowed_authn_connections = ['password'];
    expect(await set(body, kit.context)).toMatchObject({ ok: true, status: 201 });
  });

  describe('privileges beyond authentications:write', () => {
    const unauthorized = { error: { kind: 'error', code: 'unauthorized' } };
    const byEmail = (user_email: string, plain_text: string) =>
      ({ body: { org_domain: 'acme', user_email, plain_text } }) as never;
    const eventsOf = async (kit: Awaited<ReturnType<typeof passwordKit>>, userId: string) =>
      (await kit.eventStore.readStream(passwordAggregate.stream(userId))).events.map(
        (event) => event.data as Record<string, unknown>,
      );

    it('a key holding only authentications:write sets a first password, but creates no user and replaces no password', async () => {
      const kit = await passwordKit();
      const set = createPasswordHandler(kit.deps);
      const signInOnly = kit.contextWith(['authentications:write']);
      await expect(set(byEmail('newcomer@acme.com', 'quiet purple elephants at noon'), signInOnly)).rejects.toMatchObject(
        unauthorized,
      );
      expect([...kit.users.values()]).toEqual([]);

      const ada = kit.addUser('ada@acme.com');
      expect(await set(byEmail(ada.email, 'quiet purple elephants at noon'), signInOnly)).toMatchObject({ status: 201 });
      const before = await eventsOf(kit, ada.id);
      await expect(set(byEmail(ada.email, 'an attacker chose this one 42'), signInOnly)).rejects.toMatchObject(unauthorized);
      // Refused before the policy is even looked at, and nothing was written.
      await expect(set(byEmail(ada.email, 'password123'), signInOnly)).rejects.toMatchObject(unauthorized);
      expect(await eventsOf(kit, ada.id)).toEqual(before);
    });

    it('users:write creates the user; passwords:write or a reset code replaces a password in place', async () => {
      const kit = await passwordKit();
      const set = createPasswordHandler(kit.deps);
      const creator = kit.contextWith(['authentications:write', 'users:write']);
      const created = await set(byEmail('grace@acme.com', 'quiet purple elephants at noon'), creator);
      expect(created).toMatchObject({ status: 201, body: { code: null } });
      const grace = [...kit.users.values()].find((user) => user.email === 'grace@acme.com');
      expect(grace).toBeDefined();
      await expect(set(byEmail('grace@acme.com', 'amber foxes dance at dusk'), creator)).rejects.toMatchObject(unauthorized);

      const administrator = kit.contextWith(['authentications:write', 'passwords:write']);
      expect(await set(byEmail('grace@acme.com', 'amber foxes dance at dusk'), administrator)).toMatchObject({ status: 201 });

      const reset = await issuePasswordCode(
        kit.deps,
        { user: grace as never, organizationId: kit.organization.id },
        'reset',
        null,
        kit.context,
      );
      const withCode = { body: { password_code: reset.code, plain_text: 'violet hedgehogs sing at dawn' } } as never;
      expect(await set(withCode, kit.contextWith(['authentications:write']))).toMatchObject({ status: 201 });
      expect((await eventsOf(kit, grace?.id as string)).map((event) => event.previous_password_id)).toEqual([
        null,
        (created as { body: { id: string } }).body.id,
        expect.any(String),
      ]);
    });
  });
});

describe('a reset request', () => {
  const request = (fields: Record<string, unknown>) =>
    ({ body: { org_domain: 'acme', user_email: 'ada@acme.com', find_or_create_user: false, ...fields } }) as never;
  const linkOf = (mail: MailMessage | undefined) => new URL(mail?.links?.[0]?.url as string);

  it('sends the link to a registered redirect URI, the default one when none is given', async () => {
    const kit = await passwordKit();
    kit.addUser('ada@acme.com');
    const ask = createPasswordRequestHandler(kit.deps);
    expect(await ask(request({ redirect_uri: 'https://app.acme.com/welcome' }), kit.context)).toMatchObject({
      status: 201,
      body: { redirect_uri: 'https://app.acme.com/welcome' },
    });
    expect(linkOf(kit.mails[0]).href).toMatch(/^https:\/\/app\.acme\.com\/welcome\?password_code=/);
    expect(await ask(request({}), kit.context)).toMatchObject({
      status: 201,
      body: { redirect_uri: 'https://app.acme.com/reset' },
    });
    expect(linkOf(kit.mails[1]).href).toMatch(/^https:\/\/app\.acme\.com\/reset\?password_code=/);
  });

  it('refuses a redirect URI that is not registered (422 on redirect_uri), before issuing or sending anything', async () => {
    const kit = await passwordKit();
    kit.addUser('ada@acme.com');
    const ask = createPasswordRequestHandler(kit.deps);
    const before = await kit.eventStore.headPosition();
    for (const redirect_uri of ['https://evil.example.com/reset', 'https://app.acme.com/reset/../steal'])
      await expect(ask(request({ redirect_uri }), kit.context)).rejects.toMatchObject({
        error: { kind: 'fields', fields: { redirect_uri: ['is not a registered redirect URI'] } },
      });
    kit.redirectUris.length = 0;
    await expect(ask(request({}), kit.context)).rejects.toMatchObject({
      error: { kind: 'fields', fields: { redirect_uri: ["can't be blank"] } },
    });
    expect(kit.mails).toEqual([]);
    expect(await kit.eventStore.headPosition()).toBe(before);
  });

  it('answers the link to a sandbox key only: a production key gets magic_link null, the email alone carries it', async () => {
    const kit = await passwordKit();
    kit.addUser('ada@acme.com', { __environment__: 'production' });
    const ask = createPasswordRequestHandler(kit.deps);
    const answer = await ask(request({}), kit.contextWith(defaultScopes, 'production'));
    expect(answer).toMatchObject({ status: 201, body: { user_id: expect.any(String), magic_link: null } });
    expect(kit.mails).toHaveLength(1);
    expect(linkOf(kit.mails[0]).searchParams.get('password_code')).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(answer)).not.toContain(linkOf(kit.mails[0]).searchParams.get('password_code'));
  });

  it('creates an unknown user only for a key holding users:write (401 otherwise, nothing created or sent)', async () => {
    const kit = await passwordKit();
    const ask = createPasswordRequestHandler(kit.deps);
    await expect(
      ask(request({ user_email: 'ada@acme.com', find_or_create_user: true }), kit.contextWith(['authentications:write'])),
    ).rejects.toMatchObject({ error: { kind: 'error', code: 'unauthorized' } });
    expect([...kit.users.values()]).toEqual([]);
    expect(kit.mails).toEqual([]);
    expect(await ask(request({ find_or_create_user: true }), kit.context)).toMatchObject({
      status: 201,
      body: { user_id: expect.any(String) },
    });
    expect(kit.mails).toHaveLength(1);
  });
});
