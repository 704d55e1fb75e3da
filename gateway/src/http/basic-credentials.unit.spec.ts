import { ApiError } from './api-error';
import { withBasicCredentials } from './basic-credentials';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function refusal(body: unknown, authorization: string): unknown {
  try {
    withBasicCredentials(body, authorization);
  } catch (error) {
    if (error instanceof ApiError) return error.error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('HTTP Basic client credentials at the token endpoint (RFC 6749 section 2.3.1)', () => {
  const form = { grant_type: 'authorization_code', code: 'c' };

  it('turns the credentials into client_id and client_secret of the body', () => {
    expect(withBasicCredentials(form, basic('client_1', 's3cret'))).toEqual({
      ...form,
      client_id: 'client_1',
      client_secret: 's3cret',
    });
  });

  it('form-decodes both parts, so a secret may hold a colon, a plus or any character', () => {
    const answer = withBasicCredentials(form, basic('client%201', 'a%3Ab+c%25'));
    expect(answer).toMatchObject({ client_id: 'client 1', client_secret: 'a:b c%' });
    expect(withBasicCredentials(form, basic('id', 'x:y'))).toMatchObject({ client_id: 'id', client_secret: 'x:y' });
  });

  it('accepts the scheme in any case and an empty secret', () => {
    const header = basic('id', '').replace('Basic', 'bAsIc');
    expect(withBasicCredentials(form, header)).toMatchObject({ client_id: 'id', client_secret: '' });
  });

  it('accepts a body client_id naming the same client', () => {
    expect(withBasicCredentials({ ...form, client_id: 'id' }, basic('id', 's'))).toMatchObject({
      client_id: 'id',
      client_secret: 's',
    });
  });

  it('leaves the body alone without Basic credentials (a Bearer header, none, or another scheme)', () => {
    expect(withBasicCredentials(form, undefined)).toBe(form);
    expect(withBasicCredentials(form, 'Bearer abc')).toBe(form);
    expect(withBasicCredentials(form, 'Basically abc')).toBe(form);
  });

  it.each([
    ['no credentials after the scheme', 'Basic'],
    ['not base64', 'Basic ***'],
    ['no colon', `Basic ${Buffer.from('client').toString('base64')}`],
    ['an empty client id', `Basic ${Buffer.from(':secret').toString('base64')}`],
    ['two tokens', `Basic ${Buffer.from('a:b').toString('base64')} more`],
  ])('answers invalid_client to %s', (_case, header) => {
    expect(refusal(form, header)).toEqual({
      kind: 'oauth',
      code: 'invalid_client',
      description: 'Malformed HTTP Basic client credentials',
    });
  });

  it.each([
    ['a client_secret in the body as well', { ...form, client_secret: 's' }],
    ['a body client_id naming another client', { ...form, client_id: 'other' }],
  ])('answers invalid_request to %s (one authentication method only)', (_case, body) => {
    expect(refusal(body, basic('id', 's'))).toEqual({
      kind: 'oauth',
      code: 'invalid_request',
      description: 'Send the client credentials once: HTTP Basic or client_id and client_secret in the body',
    });
  });
});
