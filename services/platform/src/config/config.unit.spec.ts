import { ConfigError, baseConfigSchema, loadConfig, requireStoreUrls } from './config';

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
