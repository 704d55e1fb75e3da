import { userAgentMaxLength } from '@sesame/contracts';
import { requestClient } from './request-client';

describe('where a request came from', () => {
  it('is the address Fastify read and the user agent', () => {
    expect(requestClient({ ip: '203.0.113.7', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' } })).toEqual({
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    });
  });

  it('cuts a user agent longer than the limit, and leaves out an absent or blank one', () => {
    const long = 'A'.repeat(userAgentMaxLength + 100);
    expect(requestClient({ ip: '10.0.0.1', headers: { 'user-agent': long } }).userAgent).toBe('A'.repeat(userAgentMaxLength));
    expect(requestClient({ ip: '10.0.0.1', headers: {} })).toEqual({ ip: '10.0.0.1' });
    expect(requestClient({ ip: '10.0.0.1', headers: { 'user-agent': '   ' } })).toEqual({ ip: '10.0.0.1' });
  });
});
