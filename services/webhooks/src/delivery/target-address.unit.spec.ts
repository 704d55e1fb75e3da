import { blockedTargetMessage, isBlockedAddress, targetUrlProblem } from './target-address';

describe('webhook target addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
  ])('%s blocked: %s', (address, expected) => {
    expect(isBlockedAddress(address)).toBe(expected);
  });

  it('allows any http(s) target outside production', async () => {
    await expect(targetUrlProblem('http://127.0.0.1:9000/hook', false)).resolves.toBeNull();
  });

  it('in production: https only, and every resolved address must be public', async () => {
    const resolve = async (host: string) => (host === 'internal.example.com' ? ['8.8.8.8', '10.0.0.7'] : ['8.8.8.8']);
    await expect(targetUrlProblem('http://hooks.example.com/in', true, resolve)).resolves.toBe('must use https in production');
    await expect(targetUrlProblem('https://hooks.example.com/in', true, resolve)).resolves.toBeNull();
    await expect(targetUrlProblem('https://internal.example.com/in', true, resolve)).resolves.toBe(blockedTargetMessage);
    await expect(targetUrlProblem('https://127.0.0.1/in', true, resolve)).resolves.toBe(blockedTargetMessage);
    await expect(targetUrlProblem('https://[::1]/in', true, resolve)).resolves.toBe(blockedTargetMessage);
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(targetUrlProblem('https://nowhere.invalid/in', true, failing)).resolves.toBe('cannot be resolved');
  });
});
