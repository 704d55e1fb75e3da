import { grantTypes, subjects } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { replyStatus, signInOutcome } from '@sesame/platform';
import type { Metrics, RpcRouter, SignInOutcome } from '@sesame/platform';

/** Where each method checks the user's proof; a magic link's is its code, counted at the exchange (AuthorizationCodes). */
const proofSubjects = {
  [subjects.authMethods.password.challenge]: 'password',
  [subjects.authMethods.totp.validateChallenge]: 'totp',
  [subjects.authMethods.sso.acs]: 'sso',
} as const;

/**
 * The outcome of a proof's reply. A password challenge answers 200 either way, `valid?` saying
 * whether the password was right; the ACS answers the browser with a redirect either way: to
 * `redirect_uri?code=` when the IdP's response was accepted, with `error=` when it was not.
 */
export function proofOutcome(reply: RpcReply): SignInOutcome {
  const outcome = signInOutcome(replyStatus(reply));
  if (outcome !== 'success' || !reply.ok) return outcome;
  if ((reply.body as { 'valid?'?: unknown } | null)?.['valid?'] === false) return 'failure';
  if (reply.status !== 302) return outcome;
  const location = reply.headers?.location ?? '';
  return /[?&]code=/.test(location) && !/[?&]error=/.test(location) ? 'success' : 'failure';
}

/**
 * The grant label of a token request: a known grant type (a `code` without one is
 * `authorization_code`, as the token endpoint reads it), else `other` (the label takes no
 * caller-chosen value).
 */
export function grantOf(input: unknown): string {
  const body = (input as { body?: { grant_type?: unknown; code?: unknown } } | undefined)?.body;
  const grant = body?.grant_type ?? (body?.code !== undefined ? 'authorization_code' : undefined);
  return (grantTypes as readonly unknown[]).includes(grant) ? (grant as string) : 'other';
}

/** Counts sign-in attempts by method and outcome, and tokens issued by grant. */
export function countSignIns(router: RpcRouter, metrics: Pick<Metrics, 'signIns' | 'tokensIssued'>): void {
  for (const [subject, method] of Object.entries(proofSubjects))
    router.onReply(subject, (reply) => metrics.signIns.inc({ method, outcome: proofOutcome(reply) }));
  router.onReply(subjects.authMethods.token, (reply, input) => {
    if (reply.ok) metrics.tokensIssued.inc({ grant: grantOf(input) });
  });
}
