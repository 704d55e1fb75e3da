import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';
import { comparePaired } from '../support/timing';

const passphrase = 'correct horse battery staple 42';
/** Pairs measured per operation; each email is used twice, under the three failures that start delays. */
const pairs = 40;
/**
 * The magic-link challenge without its floor is only about 2.5 ms slower for an existing email here
 * (outbox mail), inside the noise bound of 40 pairs: 160 pairs (each email used eight times, under
 * its budget of ten) bring the bound under 1 ms, so the case fails without the floor.
 */
const magicLinkPairs = 160;
const callback = 'https://app.example.com/magic';

/**
 * Enumeration by timing: the password challenge (a wrong password), the reset request and the
 * magic-link challenge answer an existing and an unknown email alike, and in times that differ by
 * no more than the noise. Pairs are measured back to back in alternating order after a warm-up;
 * the tolerance comes from the spread measured in the same run (test/support/timing.ts), not from
 * a fixed number of ms.
 */
describe('Enumeration by timing (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  const known: string[] = [];
  const unknown: string[] = [];
  const domain = `timing-${randomUUID().slice(0, 8)}.example`;
  beforeAll(async () => {
    // 330 magic-link challenges in a minute or so: over the per-address budget, which is not under test here.
    system = await System.start({ env: { SESAME_RATE_LIMIT_MAGIC_LINK_IP: 'off' } });
    org = await createOrganization(system, 'Timing', { allowed_email_domains: [domain] });
    expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
    expect((await system.request('POST', `/api/v2/org/${org}/magic-link-connection`, { body: {} })).status).toBe(201);
    for (let index = 0; index < pairs / 2; index++) {
      known.push(`known-${index}@${domain}`);
      unknown.push(`unknown-${index}@${domain}`);
      const set = await system.request('POST', '/api/v2/password', {
        body: { org_domain: org, user_email: known[index], plain_text: passphrase },
      });
      expect(set.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  async function timed(path: string, body: Record<string, unknown>) {
    const started = performance.now();
    const answer = await system.request('POST', path, { body });
    return { ms: performance.now() - started, status: answer.status, body: answer.body };
  }

  /** Measures `count` pairs of (existing email, unknown email), alternating which goes first. */
  async function measure(path: string, bodyFor: (email: string) => Record<string, unknown>, count = pairs) {
    for (let warmUp = 0; warmUp < 4; warmUp++) await timed(path, bodyFor(`warm-up-${warmUp}@${domain}`));
    const series = { known: [] as number[], unknown: [] as number[], answers: [] as [unknown, unknown][] };
    for (let pair = 0; pair < count; pair++) {
      const [existing, ghost] = [known[pair % known.length] as string, unknown[pair % unknown.length] as string];
      const first = pair % 2 === 0 ? await timed(path, bodyFor(existing)) : await timed(path, bodyFor(ghost));
      const second = pair % 2 === 0 ? await timed(path, bodyFor(ghost)) : await timed(path, bodyFor(existing));
      const [forKnown, forUnknown] = pair % 2 === 0 ? [first, second] : [second, first];
      series.known.push(forKnown.ms);
      series.unknown.push(forUnknown.ms);
      series.answers.push([forKnown, forUnknown]);
    }
    const comparison = comparePaired(series.known, series.unknown);
    console.log(path, JSON.stringify(comparison));
    return { comparison, answers: series.answers as [{ status: number; body: any }, { status: number; body: any }][] };
  }

  it('answers a wrong password for an existing email and any password for an unknown one identically, in indistinguishable times', async () => {
    const { comparison, answers } = await measure('/api/v2/password-challenge', (email) => ({
      org_domain: org,
      user_email: email,
      plain_text: 'wrong horse battery staple',
    }));
    const withoutRequestId = ({ status, body }: { status: number; body: any }) => ({
      status,
      body: { ...body, request_id: 'x' },
    });
    for (const [existing, ghost] of answers) {
      expect(withoutRequestId(existing)).toEqual(withoutRequestId(ghost));
      expect(existing.body).toMatchObject({ 'valid?': false, error: 'invalid_credentials', user_id: null });
    }
    expect(Math.abs(comparison.medianDifference)).toBeLessThanOrEqual(comparison.tolerance);
  }, 120_000);

  it('answers a reset request for an existing and an unknown email with the same status and fields, in indistinguishable times', async () => {
    const { comparison, answers } = await measure('/api/v2/password-request', (email) => ({
      org_domain: org,
      user_email: email,
      redirect_uri: callback,
    }));
    for (const [existing, ghost] of answers) {
      expect(existing.status).toBe(201);
      expect(ghost.status).toBe(201);
      // The API-key holder may see which emails are users (it can list them): user_id and magic_link say so.
      expect(Object.keys(existing.body).sort()).toEqual(Object.keys(ghost.body).sort());
    }
    expect(Math.abs(comparison.medianDifference)).toBeLessThanOrEqual(comparison.tolerance);
  }, 120_000);

  it('answers a magic-link challenge for an existing and an unknown email with the same status and fields, in indistinguishable times', async () => {
    const { comparison, answers } = await measure(
      '/api/v2/magic-link-challenge',
      (email) => ({ email, redirect_uri: callback }),
      magicLinkPairs,
    );
    for (const [existing, ghost] of answers) {
      expect(existing.status).toBe(201);
      expect(ghost.status).toBe(201);
      // A sandbox key sees the link it would send (code, magic_link), so it tells which emails are users (it can list them).
      expect(Object.keys(existing.body).sort()).toEqual(Object.keys(ghost.body).sort());
      expect(existing.body).toMatchObject({ find_or_create_user: false, magic_link: expect.stringContaining(callback) });
      expect(ghost.body).toMatchObject({ find_or_create_user: false, code: null, magic_link: null });
    }
    expect(Math.abs(comparison.medianDifference)).toBeLessThanOrEqual(comparison.tolerance);
  }, 240_000);
});
