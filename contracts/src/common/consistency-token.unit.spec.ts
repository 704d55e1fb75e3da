import { decodeConsistencyToken, encodeConsistencyToken } from './consistency-token';

describe('consistency tokens', () => {
  it('name back the service and position they were made of', () => {
    const token = encodeConsistencyToken({ service: 'identity', position: '4521' });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeConsistencyToken(token)).toEqual({ service: 'identity', position: '4521' });
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a b'],
    ['no position', Buffer.from('identity:').toString('base64url')],
    ['a negative position', Buffer.from('identity:-1').toString('base64url')],
    ['no service', Buffer.from(':12').toString('base64url')],
    ['too long', 'a'.repeat(97)],
  ])('refuses a token that is %s', (_, token) => {
    expect(decodeConsistencyToken(token)).toBeNull();
  });
});
