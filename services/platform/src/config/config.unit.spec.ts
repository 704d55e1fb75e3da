import { ConfigError, baseConfigSchema, loadConfig, refuseOutboxesInProduction, requireStoreUrls } from './config';

const schema = baseConfigSchema.superRefine(requireStoreUrls);

describe('loadConfig', () => {
  it('applies the embedded defaults', () => {
    expect(loadConfig(schema, {})).toMatchObject({
      SESAME_NATS_URL: 'nats://127.0.0.1:4222',
      SESAME_PREFIX: 'sesame',
      SESAME_EVENT_STORE: 'jetstream',
      SESAME_READ_MODEL: 'memory',
    });
  });

  it('fails fast with every bad variable named', () => {
    let error: unknown;
    try {
      loadConfig(schema, { SESAME_PREFIX: 'Bad-Prefix', SESAME_EVENT_STORE: 'eventstoredb', SESAME_HTTP_PORT: '99999' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('SESAME_PREFIX: must be lowercase letters, digits and underscores, starting with a letter');
    expect(message).toContain('SESAME_HTTP_PORT: must be less than or equal to 65535');
    expect(message.split('\n')[0]).toBe('Invalid configuration:');
  });

  it('requires the URL of the production store that is chosen', () => {
    expect(() => loadConfig(schema, { SESAME_READ_MODEL: 'mongodb' })).toThrow(
      'SESAME_MONGODB_URL: is required when SESAME_READ_MODEL=mongodb',
    );
    expect(() => loadConfig(schema, { SESAME_EVENT_STORE: 'eventstoredb' })).toThrow(
      'SESAME_EVENTSTOREDB_URL: is required when SESAME_EVENT_STORE=eventstoredb',
    );
  });
});

describe('outboxes in production', () => {
  const production = { SESAME_MODE: 'production', SESAME_NATS_USER: 'identity', SESAME_NATS_PASSWORD: 'secret' };
  const sending = baseConfigSchema.superRefine(refuseOutboxesInProduction('mail', 'sms'));
  const mailOnly = baseConfigSchema.superRefine(refuseOutboxesInProduction('mail'));
  const messageOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };

  it('refuses to start a production process that would mail or text through an outbox, naming the variable that allows it', () => {
    const message = messageOf(() => loadConfig(sending, { ...production }));
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      '  - SESAME_MAIL_TRANSPORT: is outbox in production: emails (sign-in links, reset codes, invitations) would only be kept in NATS, never sent. Set SESAME_MAIL_TRANSPORT=smtp and SESAME_SMTP_URL, or SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true to run so on purpose',
      '  - SESAME_SMS_TRANSPORT: is outbox in production: text messages (one-time codes) would only be kept in NATS, never sent. Set SESAME_SMS_TRANSPORT=http and SESAME_SMS_HTTP_URL, or SESAME_ALLOW_OUTBOX_IN_PRODUCTION=true to run so on purpose',
    ]);
    // A process that only mails is not refused for the SMS outbox it never uses.
    expect(
      messageOf(() => loadConfig(mailOnly, { ...production, SESAME_MAIL_TRANSPORT: 'smtp', SESAME_SMTP_URL: 'smtp://mail' })),
    ).toBe('no error');
    expect(
      messageOf(() =>
        loadConfig(sending, {
          ...production,
          SESAME_SMS_TRANSPORT: 'http',
          SESAME_SMS_HTTP_URL: 'https://sms.example.com',
        }),
      ),
    ).toContain('SESAME_MAIL_TRANSPORT: is outbox in production');
  });

  it('starts with real transports, with the explicit allowance, and always outside production', () => {
    const real = {
      SESAME_MAIL_TRANSPORT: 'smtp',
      SESAME_SMTP_URL: 'smtp://mail',
      SESAME_SMS_TRANSPORT: 'http',
      SESAME_SMS_HTTP_URL: 'https://sms.example.com',
    };
    expect(loadConfig(sending, { ...production, ...real })).toMatchObject({
      SESAME_ALLOW_OUTBOX_IN_PRODUCTION: false,
    });
    expect(loadConfig(sending, { ...production, SESAME_ALLOW_OUTBOX_IN_PRODUCTION: 'true' })).toMatchObject({
      SESAME_MAIL_TRANSPORT: 'outbox',
      SESAME_ALLOW_OUTBOX_IN_PRODUCTION: true,
    });
    expect(loadConfig(sending, {})).toMatchObject({ SESAME_MODE: 'development', SESAME_MAIL_TRANSPORT: 'outbox' });
    expect(messageOf(() => loadConfig(sending, { ...production, SESAME_ALLOW_OUTBOX_IN_PRODUCTION: 'yes' }))).toContain(
      'SESAME_ALLOW_OUTBOX_IN_PRODUCTION: must be true or false',
    );
  });
});

describe('NATS credentials', () => {
  it('takes a user with its password, or a credentials file, and TLS files', () => {
    expect(
      loadConfig(schema, {
        SESAME_NATS_USER: 'identity',
        SESAME_NATS_PASSWORD: 'secret',
        SESAME_NATS_TLS_CA: '/etc/nats/ca.crt',
        SESAME_NATS_TLS_CERT: '/etc/nats/tls.crt',
        SESAME_NATS_TLS_KEY: '/etc/nats/tls.key',
      }),
    ).toMatchObject({ SESAME_NATS_USER: 'identity', SESAME_NATS_PASSWORD: 'secret', SESAME_NATS_TLS_CA: '/etc/nats/ca.crt' });
    expect(loadConfig(schema, { SESAME_MODE: 'production', SESAME_NATS_CREDS: '/etc/nats/identity.creds' })).toMatchObject({
      SESAME_NATS_CREDS: '/etc/nats/identity.creds',
    });
  });

  it('refuses half of a credential, or both kinds at once, naming the variable', () => {
    expect(() => loadConfig(schema, { SESAME_NATS_USER: 'identity' })).toThrow(
      'SESAME_NATS_PASSWORD: is required with SESAME_NATS_USER',
    );
    expect(() => loadConfig(schema, { SESAME_NATS_PASSWORD: 'secret' })).toThrow(
      'SESAME_NATS_USER: is required with SESAME_NATS_PASSWORD',
    );
    expect(() =>
      loadConfig(schema, { SESAME_NATS_USER: 'identity', SESAME_NATS_PASSWORD: 'secret', SESAME_NATS_CREDS: '/x.creds' }),
    ).toThrow('SESAME_NATS_CREDS: cannot be combined with SESAME_NATS_USER: give one or the other');
    expect(() => loadConfig(schema, { SESAME_NATS_TLS_CERT: '/etc/nats/tls.crt' })).toThrow(
      'SESAME_NATS_TLS_KEY: SESAME_NATS_TLS_CERT and SESAME_NATS_TLS_KEY go together',
    );
  });

  it('refuses to start in production without NATS credentials', () => {
    expect(() => loadConfig(schema, { SESAME_MODE: 'production' })).toThrow(
      'SESAME_NATS_USER: is required in production (or SESAME_NATS_CREDS): a NATS without credentials lets anyone who reaches it act as any service',
    );
  });
});
