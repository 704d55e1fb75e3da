import type { ApiKey, System } from './system';

const passphrase = 'correct horse battery staple 42';
/** What the token endpoint answers a code already exchanged (or unknown, or expired). */
export const usedCode = {
  error: 'invalid_grant',
  error_description: 'The authorization code is invalid, expired or already used',
};

/** One sign-in of the load: the gateway its challenge took, its code, and what each exchange of it answered. */
interface SignIn {
  email: string;
  gateway: number;
  code: string;
  /** The statuses of the code's exchanges, sent at once through every gateway (twice through a single one). */
  exchanges: number[];
}

/**
 * Sign-ins beside the write load: a password challenge through one gateway, then its
 * authorization code exchanged through every gateway at once (twice through one when there is one),
 * so that at most one exchange may succeed, during the faults too. Its users are given their
 * password before the load (`create`); a sign-in is acknowledged when the challenge answered a
 * code. `audit` replays every acknowledged code through every gateway afterwards.
 */
export class SignInLoad {
  readonly acknowledged: SignIn[] = [];
  /** Challenges refused (4xx, or `valid?` false: a password set before the load no longer recognized). */
  readonly refused: { email: string; status: number; body: string }[] = [];
  /** Challenges sent whose answer was lost or a 5xx. */
  unknown = 0;
  private running = false;
  private worker: Promise<void> = Promise.resolve();
  private sequence = 0;

  private constructor(
    private readonly token: string,
    private readonly key: ApiKey,
    private readonly domain: string,
    private readonly emails: string[],
    private readonly gateways: string[],
  ) {}

  /** Sets the password of `count` users of organization `domain` (created by it), at `emailDomain`. */
  static async create(system: System, domain: string, emailDomain: string, gateways: string[], count = 30): Promise<SignInLoad> {
    const emails = Array.from({ length: count }, (_, i) => `signin${i}@${emailDomain}`);
    for (const user_email of emails) {
      const set = await system.request('POST', '/api/v2/password', {
        body: { org_domain: domain, user_email, plain_text: passphrase },
      });
      if (set.status !== 201) throw new Error(`password of ${user_email}: ${set.status} ${JSON.stringify(set.body)}`);
    }
    return new SignInLoad(await system.token(), system.apiKey, domain, emails, gateways);
  }

  /** One sign-in at a time, `pauseMs` apart (argon2id is the costly part; the machine is shared). */
  start(pauseMs = 300): void {
    this.running = true;
    this.worker = (async () => {
      while (this.running) {
        await this.signIn(this.sequence++);
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.worker;
  }

  /**
   * Every acknowledged sign-in's code replayed through every gateway: each must be refused as
   * used, except that a code none of whose exchanges was answered (all lost or 5xx) may be
   * exchanged once now (`exchangedAfterwards`). A replay left without an answer (none, or a 5xx:
   * after the faults a service may still be catching up on its feeds) is sent again, a few times
   * (`replaysRetried`): what counts is the answer. Answers the figures, the codes exchanged twice and
   * the replays not refused as used (both must be none).
   */
  async audit(): Promise<{ figures: Record<string, number>; exchangedTwice: SignIn[]; replaysNotRefused: string[] }> {
    const replaysNotRefused: string[] = [];
    let exchangedAfterwards = 0;
    const retried = { count: 0 };
    for (const signIn of this.acknowledged) {
      let exchanged = signIn.exchanges.some((status) => status === 200);
      for (const gateway of this.gateways) {
        const replay = await this.replay(gateway, signIn.code, retried);
        if (replay.status === 200 && !exchanged) {
          exchanged = true;
          exchangedAfterwards++;
        } else if (replay.status !== 400 || JSON.stringify(replay.body) !== JSON.stringify(usedCode))
          replaysNotRefused.push(`${signIn.email} through ${gateway}: ${replay.status} ${JSON.stringify(replay.body)}`);
      }
    }
    const exchangedTwice = this.acknowledged.filter((signIn) => signIn.exchanges.filter((status) => status === 200).length > 1);
    return {
      figures: {
        acknowledged: this.acknowledged.length,
        exchanged: this.acknowledged.filter((signIn) => signIn.exchanges.includes(200)).length,
        exchangedAfterwards,
        exchangedTwice: exchangedTwice.length,
        challengeUnknown: this.unknown,
        refused: this.refused.length,
        replays: this.acknowledged.length * this.gateways.length,
        replaysNotRefused: replaysNotRefused.length,
        replaysRetried: retried.count,
      },
      exchangedTwice,
      replaysNotRefused,
    };
  }

  private async signIn(n: number): Promise<void> {
    const email = this.emails[n % this.emails.length] as string;
    const gateway = n % this.gateways.length;
    const challenge = await post(`${this.gateways[gateway]}/api/v2/password-challenge`, {
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ org_domain: this.domain, user_email: email, plain_text: passphrase }),
    });
    if (challenge.status === 0 || challenge.status >= 500) {
      this.unknown++;
      return;
    }
    const { code, 'valid?': valid } = challenge.body as { code?: string; 'valid?'?: boolean };
    if (challenge.status !== 200 || valid !== true || !code) {
      this.refused.push({ email, status: challenge.status, body: JSON.stringify(challenge.body).slice(0, 300) });
      return;
    }
    const through = this.gateways.length > 1 ? this.gateways : [...this.gateways, ...this.gateways];
    const exchanges = await Promise.all(through.map((url) => this.exchange(url, code)));
    this.acknowledged.push({ email, gateway, code, exchanges: exchanges.map((answer) => answer.status) });
  }

  /**
   * A replay's answer (an exchange of `code` through `gateway`): sent again after 2 s when none
   * came or a 5xx (5 times at most); after the `Retry-After` the token endpoint names when it
   * answers 429 (its rate limits are no verdict on the code; 10 times at most); and after 5 s when
   * it answers 409 conflict, which asks for a retry and is no verdict either (an exchange whose
   * answer a fault lost holds the code until its revision claim is taken over, 60 s; 12 times at
   * most).
   */
  private async replay(gateway: string, code: string, retried: { count: number }) {
    for (let attempt = 1, slowedDown = 0, held = 0; ;) {
      const answer = await this.exchange(gateway, code);
      if (answer.status === 429 && slowedDown++ < 10) {
        await new Promise((resolve) => setTimeout(resolve, 1_000 * Math.min(Math.max(answer.retryAfter, 1), 60)));
        continue;
      }
      if (answer.status === 409 && held++ < 12) {
        retried.count++;
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        continue;
      }
      if ((answer.status !== 0 && answer.status < 500) || attempt++ === 5) return answer;
      retried.count++;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }

  /** The token endpoint as the integrator's backend calls it, with the API key's client credentials. */
  private exchange(gateway: string, code: string) {
    return post(`${gateway}/oauth/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: this.key.clientId,
        client_secret: this.key.clientSecret,
      }).toString(),
    });
  }
}

/** A POST's status, JSON body and `Retry-After` seconds (0 when absent); status 0 when no answer came (refused, reset, timed out). */
async function post(
  url: string,
  init: { headers: Record<string, string>; body: string },
): Promise<{ status: number; body: unknown; retryAfter: number }> {
  try {
    const response = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(30_000) });
    const retryAfter = Number(response.headers.get('retry-after') ?? 0) || 0;
    return { status: response.status, body: await response.json().catch(() => undefined), retryAfter };
  } catch {
    return { status: 0, body: undefined, retryAfter: 0 };
  }
}
