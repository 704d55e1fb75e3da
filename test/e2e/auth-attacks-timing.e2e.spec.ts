import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';
import { comparePaired } from '../support/timing';

const passphrase = 'correct horse battery staple 42';
/** Pairs measured per operation; each email is used twice, under the three failures that start delays. */
const pairs = 40;

/**
 * Enumeration by timing: the password challenge (a wrong password) and the reset request answer an
 * existing and an unknown email alike, and in times that differ by no more than the noise. Pairs
 * are measured back to back in alternating order after a warm-up; the tolerance comes from the
 * spread measured in the same run (test/support/timing.ts), not from a fixed number of ms.
 */
describe('Enumeration by timing (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  const known: string[] = [];
  const unknown: string[] = [];
  const domain = `timing-${randomUUID().slice(0, 8)}.example`;
  beforeAll(async () => {
    system = await System.start();
    org = await createOrganization(system, 'Timing', { allowed_email_domains: [domain] });
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

  /** Measures `pairs` pairs of (existing email, unknown email), alternating which goes first. */
  async function measure(path: string, bodyFor: (email: string) => Record<string, unknown>) {
    for (let warmUp = 0; warmUp < 4; warmUp++) await timed(path, bodyFor(`warm-up-${warmUp}@${domain}`));
    const series = { known: [] as number[], unknown: [] as number[], answers: [] as [unknown, unknown][] };
    for (let pair = 0; pair < pairs; pair++) {
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
      redirect_uri: 'https://app.example.com/reset',
    }));
    for (const [existing, ghost] of answers) {
      expect(existing.status).toBe(201);
      expect(ghost.status).toBe(201);
      // The API-key holder may see which emails are users (it can list them): user_id and magic_link say so.
      expect(Object.keys(existing.body).sort()).toEqual(Object.keys(ghost.body).sort());
    }
    expect(Math.abs(comparison.medianDifference)).toBeLessThanOrEqual(comparison.tolerance);
  }, 120_000);
});
