import { createLogger, requestLogger } from './logger';
import { redactSecrets, redactText } from './redaction';

/** A logger writing into an array, and its lines parsed. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(line) });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

const magicLink = 'https://app.acme.com/callback?code=mlc_s3cr3t_value&request_id=42';
const resetLink = 'https://app.acme.com/reset?password_code=pwc_s3cr3t_value&request_id=43';
const invitation = 'https://sesame.example.com/onboarding/?token=inv_s3cr3t%2Evalue';
const secrets = ['mlc_s3cr3t_value', 'pwc_s3cr3t_value', 'inv_s3cr3t', 'tok_s3cr3t', 'pass_s3cr3t', 'jwt_s3cr3t'];

describe('log redaction', () => {
  it('redacts secret fields at any depth, whatever their case, and keeps the others', () => {
    const { logger, entries } = capturedLogger();
    logger.info(
      {
        request: { body: { user_email: 'ada@acme.com', plain_text: 'pass_s3cr3t', password_code: 'pwc_s3cr3t_value' } },
        answer: { data: [{ code: 'mlc_s3cr3t_value', magic_link: magicLink, request_id: '42' }] },
        headers: { Authorization: 'Bearer jwt_s3cr3t.a.b', 'x-correlation-id': 'c-1' },
        tokens: { access_token: 'jwt_s3cr3t', refresh_token: 'tok_s3cr3t', Token: 'tok_s3cr3t' },
      },
      'answered',
    );
    const [entry] = entries();
    expect(entry).toMatchObject({
      request: { body: { user_email: 'ada@acme.com', plain_text: '[redacted]', password_code: '[redacted]' } },
      answer: { data: [{ code: '[redacted]', magic_link: '[redacted]', request_id: '42' }] },
      headers: { Authorization: '[redacted]', 'x-correlation-id': 'c-1' },
      tokens: { access_token: '[redacted]', refresh_token: '[redacted]', Token: '[redacted]' },
      msg: 'answered',
    });
  });

  it('redacts the secret parameters of links and the credentials inside any text: fields, messages and errors', () => {
    const { logger, lines, entries } = capturedLogger();
    logger.info(
      { mail: { links: [{ rel: 'magic-link', url: magicLink }], body: `Open ${resetLink} now` } },
      `sent ${invitation}`,
    );
    const failure = Object.assign(new Error(`could not reach ${magicLink} with Bearer jwt_s3cr3t.x.y`), { code: 'ECONNRESET' });
    logger.error({ err: failure }, 'delivery failed');
    requestLogger(logger, 'c-2').warn(`retrying ${resetLink}`);
    for (const secret of secrets) expect(lines.join('')).not.toContain(secret);
    const [sent, failed, retried] = entries();
    expect(sent).toMatchObject({
      mail: {
        links: [{ rel: 'magic-link', url: 'https://app.acme.com/callback?code=[redacted]&request_id=42' }],
        body: 'Open https://app.acme.com/reset?password_code=[redacted]&request_id=43 now',
      },
      msg: 'sent https://sesame.example.com/onboarding/?token=[redacted]',
    });
    // An error keeps its type, its code and the useful part of its message.
    expect(failed?.err).toMatchObject({
      type: 'Error',
      code: 'ECONNRESET',
      message: 'could not reach https://app.acme.com/callback?code=[redacted]&request_id=42 with Bearer [redacted]',
    });
    expect(retried).toMatchObject({ correlationId: 'c-2', msg: expect.stringContaining('password_code=[redacted]') });
  });

  it('leaves text without secrets, errors and cycles alone', () => {
    expect(redactText('GET /api/v2/users?page=2&per_page=10 answered 200')).toBe(
      'GET /api/v2/users?page=2&per_page=10 answered 200',
    );
    const error = new Error('kept');
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(redactSecrets({ error, cyclic }).error).toBe(error);
    expect(() => redactSecrets(cyclic)).not.toThrow();
  });
});
