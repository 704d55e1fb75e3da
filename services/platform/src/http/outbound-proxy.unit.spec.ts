import { authorityOf, proxyFor, proxySettings } from './outbound-proxy';

describe('outbound proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)', () => {
  const https = (hostname: string, port = '') => ({ protocol: 'https:', hostname, port });
  const http = (hostname: string, port = '') => ({ protocol: 'http:', hostname, port });
  const via = (env: NodeJS.ProcessEnv, target: { protocol: string; hostname: string; port: string }) =>
    proxyFor(target, proxySettings(env))?.href ?? null;

  it('sends nothing through a proxy when none is set', () => {
    expect(via({}, https('hooks.example.com'))).toBeNull();
    expect(via({ NO_PROXY: 'example.com' }, http('hooks.example.com'))).toBeNull();
  });

  it('uses HTTPS_PROXY for https:// targets, HTTP_PROXY for http:// ones, HTTP_PROXY for both when alone', () => {
    const env = { HTTPS_PROXY: 'http://secure.proxy:3128', HTTP_PROXY: 'http://plain.proxy:8080' };
    expect(via(env, https('hooks.example.com'))).toBe('http://secure.proxy:3128/');
    expect(via(env, http('hooks.example.com'))).toBe('http://plain.proxy:8080/');
    expect(via({ HTTP_PROXY: 'http://plain.proxy:8080' }, https('hooks.example.com'))).toBe('http://plain.proxy:8080/');
    expect(via({ HTTPS_PROXY: 'http://secure.proxy:3128' }, http('hooks.example.com'))).toBeNull();
  });

  it('prefers the lower-case variables, and takes a proxy without a scheme as http://', () => {
    expect(via({ https_proxy: 'lower.proxy:3128', HTTPS_PROXY: 'http://upper.proxy:3128' }, https('a.example'))).toBe(
      'http://lower.proxy:3128/',
    );
    expect(via({ HTTPS_PROXY: 'http://p:3', NO_PROXY: 'x.example', no_proxy: 'a.example' }, https('a.example'))).toBeNull();
  });

  it('refuses a proxy it cannot speak to (SOCKS), naming the variable', () => {
    expect(() => proxySettings({ HTTPS_PROXY: 'socks5://proxy:1080' })).toThrow(
      'HTTPS_PROXY: only http:// and https:// proxies are supported, not socks5:',
    );
  });

  it.each([
    ['example.com', 'example.com', true],
    ['example.com', 'hooks.example.com', true],
    ['example.com', 'badexample.com', false],
    ['.example.com', 'hooks.example.com', true],
    ['.example.com', 'example.com', false],
    ['*.example.com', 'hooks.example.com', true],
    ['EXAMPLE.com', 'Hooks.Example.COM.', true],
    ['example.com:8443', 'hooks.example.com', false],
    ['*', 'anything.example', true],
    ['10.1.2.3', '10.1.2.3', true],
    ['10.1.2.3', '110.1.2.3', false],
    ['[::1]', '[::1]', true],
    ['::1', '[::1]', true],
    ['internal, other.example  example.org', 'www.example.org', true],
  ])('NO_PROXY=%s: %s goes directly: %s', (noProxy, hostname, direct) => {
    const env = { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: noProxy };
    expect(via(env, https(hostname)) === null).toBe(direct);
  });

  it('matches a NO_PROXY port against the target port, the scheme default when the URL has none', () => {
    const env = { HTTPS_PROXY: 'http://proxy:3128', HTTP_PROXY: 'http://proxy:3128', NO_PROXY: 'example.com:443' };
    expect(via(env, https('example.com'))).toBeNull();
    expect(via(env, https('example.com', '8443'))).toBe('http://proxy:3128/');
    expect(via(env, http('example.com'))).toBe('http://proxy:3128/');
  });

  it('writes the CONNECT authority with the default port and IPv6 in brackets', () => {
    expect(authorityOf('hooks.example.com', '', 'https:')).toBe('hooks.example.com:443');
    expect(authorityOf('93.184.216.34', '8080', 'http:')).toBe('93.184.216.34:8080');
    expect(authorityOf('2606:2800:220:1::248', '', 'https:')).toBe('[2606:2800:220:1::248]:443');
    expect(authorityOf('[2606:2800:220:1::248]', '', 'http:')).toBe('[2606:2800:220:1::248]:80');
  });
});
