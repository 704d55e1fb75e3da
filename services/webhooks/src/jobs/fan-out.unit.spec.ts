import { receives } from './fan-out';

const event = (domain: string | null) => ({ code: 'user.created' as const, domain });
const unscoped = { event_codes: ['user.created'], organization_domain: null };
const scopedToAcme = { event_codes: ['user.created'], organization_domain: 'acme' };

describe('which webhooks receive an event of their environment', () => {
  it('an unscoped webhook receives the events of every organization and those of none', () => {
    expect(receives(unscoped, event('acme'))).toBe(true);
    expect(receives(unscoped, event('globex'))).toBe(true);
    expect(receives(unscoped, event(null))).toBe(true);
  });

  it("a scoped webhook receives only its organization's events", () => {
    expect(receives(scopedToAcme, event('acme'))).toBe(true);
    expect(receives(scopedToAcme, event('globex'))).toBe(false);
    expect(receives(scopedToAcme, event(null))).toBe(false);
  });

  it('only the codes it listens to; a test event reaches every webhook listening to its code', () => {
    expect(receives(scopedToAcme, { code: 'user.deleted', domain: 'acme' })).toBe(false);
    expect(receives(scopedToAcme, event(null), true)).toBe(true);
    expect(receives(scopedToAcme, { code: 'user.deleted', domain: null }, true)).toBe(false);
  });
});
