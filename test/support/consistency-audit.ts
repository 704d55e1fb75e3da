import { randomUUID } from 'node:crypto';
import type { Written } from './write-load';

/** One answer of a gateway: status, the created resource's id, whether it was marked a replay. */
interface Answer {
  status: number;
  id?: string;
  replayed: string | null;
}

async function send(url: string, token: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    }).catch(() => undefined);
    const answer = response
      ? {
          status: response.status,
          id: ((await response.json().catch(() => ({}))) as { id?: string }).id,
          replayed: response.headers.get('idempotent-replayed'),
        }
      : { status: 0, replayed: null };
    // No answer or a 5xx says nothing of the key: asked again a little later (5 times at most).
    if ((answer.status !== 0 && answer.status < 500) || attempt === 5) return answer;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * Every acknowledged organization creation sent again, with its `Idempotency-Key` and body,
 * through each gateway: each must answer the first answer again (201, the same id) marked
 * `Idempotent-Replayed`, so that the key-value bucket keeping the answers kept them through the
 * faults, and the same on every gateway. Answers the replays and those that were not.
 */
export async function auditIdempotentReplays(gateways: string[], token: string, acknowledged: Written[]) {
  const keyed = acknowledged.filter((written) => written.kind === 'organization' && written.idempotencyKey);
  const mismatched: { key: string; gateway: string; answer: Answer; id?: string }[] = [];
  for (const written of keyed)
    for (const gateway of gateways) {
      const headers = { 'idempotency-key': written.idempotencyKey as string };
      const answer = await send(`${gateway}/api/v2/organizations`, token, { name: written.key }, headers);
      if (answer.status !== 201 || answer.id !== written.id || answer.replayed !== 'true')
        mismatched.push({ key: written.key, gateway, answer, id: written.id });
    }
  return { replays: keyed.length * gateways.length, mismatched };
}

/**
 * The gateways share their rate-limit counters after the faults: `attempts` password challenges
 * for one new email (at `emailDomain`) of organization `domain`, taking turns through the gateways, within one
 * window of the per-email budget (`budget` a minute, `password_challenge_email`). Answers how
 * many were let through (not 429): the budget, exactly, when the counter is one for all.
 */
export async function auditSharedRateLimit(
  gateways: string[],
  token: string,
  { domain, emailDomain }: { domain: string; emailDomain: string },
  budget: number,
) {
  // Clear of a window's end: the first `budget` count in this window, the rest are refused.
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 500));
  const email = `rate-${randomUUID()}@${emailDomain}`;
  const statuses: number[] = [];
  for (let attempt = 0; attempt < budget + 2; attempt++) {
    const gateway = gateways[attempt % gateways.length] as string;
    const body = { org_domain: domain, user_email: email, plain_text: 'not the password' };
    statuses.push((await send(`${gateway}/api/v2/password-challenge`, token, body)).status);
  }
  return { statuses, letThrough: statuses.filter((status) => status !== 429).length };
}
