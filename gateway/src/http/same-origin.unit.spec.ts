import { ApiError } from './api-error';
import { refuseCrossSite } from './same-origin';

const origin = 'https://auth.example.com';
const verdict = (headers: Record<string, string>) => {
  try {
    refuseCrossSite(headers, origin);
    return 'allowed';
  } catch (error) {
    return error instanceof ApiError ? error.error : error;
  }
};

describe('cross-site refusal of the onboarding calls', () => {
  it('lets Sesame’s own page through, and clients that are not browsers', () => {
    expect(verdict({ origin, 'sec-fetch-site': 'same-origin' })).toBe('allowed');
    expect(verdict({ origin })).toBe('allowed');
    expect(verdict({})).toBe('allowed');
  });

  it('refuses another origin, an opaque one, and what the browser marks cross-site or same-site', () => {
    const refused = { kind: 'error', code: 'cross_site_request' };
    expect(verdict({ origin: 'https://evil.example' })).toEqual(refused);
    expect(verdict({ origin: 'http://auth.example.com' })).toEqual(refused);
    expect(verdict({ origin: 'null' })).toEqual(refused);
    expect(verdict({ 'sec-fetch-site': 'cross-site' })).toEqual(refused);
    expect(verdict({ origin, 'sec-fetch-site': 'same-site' })).toEqual(refused);
  });
});
