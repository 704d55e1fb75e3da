import { handleCommand, hashSecret, streamName } from '@sesame/platform';
import { authorizationCodeCategory } from '../../core/authorization-codes/authorization-codes';
import { metadata } from '../../core/authorization-codes/sign-in.spec-kit';
import { lockMs } from './domain/password-attempts.decider';
import { defaultPasswordConnection, passwordConnectionDecider } from './domain/password-connection.decider';
import { createPasswordChallengeHandler, passwordRefusalFloorMs } from './password-challenge.handlers';
import { createPasswordHandler, storePassword } from './password-sign-in.handlers';
import { passwordAggregate, passwordAttemptsAggregate, passwordAttemptsKey } from './password.aggregates';
import { passwordConnectionStream } from './password.deps';
import { passwordKit } from './password.spec-kit';

const passphrase = 'correct horse battery staple 42';

describe('password challenge', () => {
  let kit: Awaited<ReturnType<typeof passwordKit>>;
  let challenge: ReturnType<typeof createPasswordChallengeHandler>;
  beforeEach(async () => {
    kit = await passwordKit();
    challenge = createPasswordChallengeHandler(kit.deps);
  });
  /** The user's password, set as the API sets a first one (no replacement). */
  const withPassword = (user: ReturnType<typeof kit.addUser>, plainText = passphrase) =>
    storePassword(
      kit.deps,
      { user, organizationId: kit.organization.id },
      plainText,
      defaultPasswordConnection,
      kit.context,
      false,
    );
  const attempt = async (email: string, plain_text: string) => {
    const reply = await challenge({ body: { user_email: email, plain_text } } as never, kit.context);
    if (!reply.ok) throw new Error('refused');
    return reply.body;
  };

  it('rehashes with the new pepper at the first sign-in after a rotation, and the password keeps working', async () => {
    const user = kit.addUser('ada@acme.com');
    await withPassword(user);
    kit.advance(defaultPasswordConnection.pepper_rotation_period * 1_000);
    expect(await attempt('ada@acme.com', passphrase)).toMatchObject({ 'valid?': true, renew_password: false });
    const events = (await kit.eventStore.readStream(passwordAggregate.stream(user.id))).events as unknown as {
      type: string;
      data: { pepper_epoch: number; hash: string };
    }[];
    expect(events.map((event) => event.type)).toEqual(['PasswordSet', 'PasswordRehashed']);
    expect(events[1]?.data.pepper_epoch).toBe((events[0]?.data.pepper_epoch as number) + 1);
    expect(events[1]?.data.hash).not.toBe(events[0]?.data.hash);

    expect(await attempt('ada@acme.com', passphrase)).toMatchObject({ 'valid?': true });
    expect(await attempt('ada@acme.com', 'wrong horse')).toMatchObject({ 'valid?': false });
    expect((await kit.eventStore.readStream(passwordAggregate.stream(user.id))).events).toHaveLength(2);
  });

  it('asks for a new password, with a password code, when the password no longer meets the rules', async () => {
    const user = kit.addUser('grace@acme.com');
    await withPassword(user, 'purple elephants');
    await handleCommand(
      { eventStore: kit.eventStore },
      passwordConnectionDecider,
      passwordConnectionStream('sandbox', kit.organization.id),
      {
        type: 'CreatePasswordConnection',
        data: {
          id: '5b0c7e2a-1d3f-5a4b-8c6d-7e8f9a0b1c2d',
          organization_id: kit.organization.id,
          environment: 'sandbox',
          organization_domain: 'acme',
          settings: { plain_text_min_length: 20 },
          at: 't',
        },
      },
      metadata(),
    );
    const answer = await attempt('grace@acme.com', 'purple elephants');
    expect(answer).toMatchObject({ 'valid?': true, renew_password: true, user_id: user.id });
    const setPassword = createPasswordHandler(kit.deps);
    await expect(
      setPassword({ body: { password_code: answer.code, plain_text: 'purple elephants' } } as never, kit.context),
    ).rejects.toMatchObject({ error: { kind: 'fields', fields: { plain_text: ['is too short (minimum is 20 characters)'] } } });
    const renewed = await setPassword(
      { body: { password_code: answer.code, plain_text: 'purple elephants dance at noon' } } as never,
      kit.context,
    );
    expect(renewed).toMatchObject({
      ok: true,
      status: 201,
      body: { user_id: user.id, code: expect.stringMatching(/^[\w-]{43}$/) },
    });
    expect(await attempt('grace@acme.com', 'purple elephants dance at noon')).toMatchObject({
      'valid?': true,
      renew_password: false,
    });
  });

  it("records the password, its rehash and the email's attempts under the organization's tenant (on the envelope)", async () => {
    const user = kit.addUser('envelope@acme.com');
    await withPassword(user);
    kit.advance(defaultPasswordConnection.pepper_rotation_period * 1_000);
    expect(await attempt('envelope@acme.com', 'wrong')).toMatchObject({ error: 'invalid_credentials' });
    expect(await attempt('envelope@acme.com', passphrase)).toMatchObject({ 'valid?': true });
    const tenant = { organization_id: kit.organization.id, environment: 'sandbox' };
    const envelopes = async (stream: string) =>
      (await kit.eventStore.readStream(stream)).events.map((event) => [event.type, event.metadata.tenant]);
    expect(await envelopes(passwordAggregate.stream(user.id))).toEqual([
      ['PasswordSet', tenant],
      ['PasswordRehashed', tenant],
    ]);
    const attempts = passwordAttemptsAggregate.stream(passwordAttemptsKey('sandbox', 'acme', 'envelope@acme.com'));
    expect(await envelopes(attempts)).toEqual([
      ['PasswordChallengeFailed', tenant],
      ['PasswordChallengeSucceeded', tenant],
    ]);
  });

  it("issues its authorization code under the organization's tenant (id and environment on the envelope)", async () => {
    const user = kit.addUser('tenant@acme.com');
    await withPassword(user);
    const { code } = (await attempt('tenant@acme.com', passphrase)) as { code: string };
    const issued = (await kit.eventStore.readStream(streamName(authorizationCodeCategory, hashSecret(code)))).events;
    expect(issued.map((event) => [event.type, event.metadata.tenant])).toEqual([
      ['AuthorizationCodeIssued', { organization_id: kit.organization.id, environment: 'sandbox' }],
    ]);
  });

  it('delays attempts after three failures, locks after ten, and treats unknown emails the same', async () => {
    const user = kit.addUser('locked@acme.com');
    await withPassword(user);
    for (const email of ['locked@acme.com', 'ghost@acme.com']) {
      for (let n = 0; n < 3; n++) expect(await attempt(email, 'wrong')).toMatchObject({ error: 'invalid_credentials' });
      expect(await attempt(email, passphrase)).toMatchObject({ 'valid?': false, error: 'too_many_attempts' });
      for (let n = 3; n < 10; n++) {
        kit.advance(60_000);
        expect(await attempt(email, 'wrong')).toMatchObject({ error: 'invalid_credentials' });
      }
      kit.advance(60_000);
      expect(await attempt(email, passphrase)).toMatchObject({ error: 'too_many_attempts' });
      kit.advance(lockMs - 60_000);
    }
    expect(await attempt('locked@acme.com', passphrase)).toMatchObject({ 'valid?': true, error: null });
    expect(await attempt('locked@acme.com', 'wrong')).toMatchObject({ error: 'invalid_credentials' });
    expect(await attempt('locked@acme.com', passphrase)).toMatchObject({ 'valid?': true });
  });

  it('answers every refusal no sooner than the floor: a wrong password, an unknown email, a locked one', async () => {
    const user = kit.addUser('ada@acme.com');
    await withPassword(user);
    const timed = async (email: string, plainText: string) => {
      const started = performance.now();
      const body = await attempt(email, plainText);
      return { error: body.error, ms: performance.now() - started };
    };
    const refusals = [
      await timed('ada@acme.com', 'wrong'),
      await timed('ghost@acme.com', passphrase),
      await timed('ada@acme.com', 'wrong'),
      await timed('ada@acme.com', 'wrong'),
      await timed('ada@acme.com', passphrase),
    ];
    expect(refusals.map(({ error }) => error)).toEqual([
      'invalid_credentials',
      'invalid_credentials',
      'invalid_credentials',
      'invalid_credentials',
      'too_many_attempts',
    ]);
    for (const { ms } of refusals) expect(ms).toBeGreaterThanOrEqual(passwordRefusalFloorMs);
  });

  it('applies the connection its domain stored before connections were keyed by organization, unless it names another organization', async () => {
    const cases = [
      { owner: undefined, renew: true },
      { owner: 'kit', renew: true },
      { owner: '9f0c7e2a-1d3f-4a4b-8c6d-7e8f9a0b1c2d', renew: false },
    ];
    for (const { owner, renew } of cases) {
      kit = await passwordKit();
      challenge = createPasswordChallengeHandler(kit.deps);
      const organization_id = owner === 'kit' ? kit.organization.id : owner;
      const user = kit.addUser('legacy@acme.com');
      await withPassword(user, 'purple elephants');
      const settings = { ...defaultPasswordConnection, plain_text_min_length: 20 };
      const data = {
        ...settings,
        ...(organization_id ? { organization_id } : {}),
        environment: 'sandbox',
        organization_domain: 'acme',
        at: 't',
      };
      await kit.eventStore.appendToStream(
        passwordConnectionStream('sandbox', 'acme'),
        [{ type: 'PasswordConnectionCreated', data }],
        {
          expectedRevision: 'any',
          metadata: metadata(),
        },
      );
      expect(await attempt(user.email, 'purple elephants')).toMatchObject({ 'valid?': true, renew_password: renew });
    }
  });

  it('answers a burst of parallel guesses no more than guesses one after the other: three, then too_many_attempts, right password included', async () => {
    const user = kit.addUser('burst@acme.com');
    await withPassword(user);
    const guesses = [...Array.from({ length: 19 }, (_, n) => `wrong guess ${n}`), passphrase];
    const answers = await Promise.all(guesses.map((guess) => attempt('burst@acme.com', guess)));
    const errors = answers.map((answer) => answer.error);
    expect(errors.filter((error) => error === 'invalid_credentials')).toHaveLength(3);
    expect(errors.filter((error) => error === 'too_many_attempts')).toHaveLength(17);
    expect(answers.at(-1)).toMatchObject({ 'valid?': false, code: null });
    const recorded = await kit.eventStore.readStream(
      passwordAttemptsAggregate.stream(passwordAttemptsKey('sandbox', 'acme', 'burst@acme.com')),
    );
    expect(recorded.events.map((event) => event.type)).toEqual(Array(3).fill('PasswordChallengeFailed'));
  });

  it('counts attempts under the organization identity answers, whatever org_domain named (read at once when they are the same)', async () => {
    const user = kit.addUser('named@acme.com');
    await withPassword(user);
    const named = (org_domain: string, plain_text: string) =>
      challenge({ body: { org_domain, user_email: user.email, plain_text } } as never, kit.context);
    expect(await named('Acme', 'wrong')).toMatchObject({ body: { error: 'invalid_credentials' } });
    expect(await named('acme', 'wrong again')).toMatchObject({ body: { error: 'invalid_credentials' } });
    const types = async (organization: string) =>
      (
        await kit.eventStore.readStream(
          passwordAttemptsAggregate.stream(passwordAttemptsKey('sandbox', organization, user.email)),
        )
      ).events.map((e) => e.type);
    expect(await types('acme')).toEqual(['PasswordChallengeFailed', 'PasswordChallengeFailed']);
    expect(await types('Acme')).toEqual([]);
    expect(await named('acme', passphrase)).toMatchObject({ body: { 'valid?': true, user_id: user.id } });
  });

  it('refuses every attempt, right or wrong, when the organization does not allow passwords, and records nothing', async () => {
    const user = kit.addUser('sso.only@acme.com');
    await withPassword(user);
    const before = await kit.eventStore.headPosition();
    for (const allowed of [['sso'], []] as const) {
      kit.organization.allowed_authn_connections = [...allowed];
      for (const plain_text of [passphrase, 'wrong'])
        await expect(challenge({ body: { user_email: user.email, plain_text } } as never, kit.context)).rejects.toMatchObject({
          error: { kind: 'error', code: 'authn_connection_not_allowed' },
        });
    }
    expect(await kit.eventStore.headPosition()).toBe(before);
    kit.organization.allowed_authn_connections = ['password'];
    expect(await attempt(user.email, passphrase)).toMatchObject({ 'valid?': true });
  });
});
