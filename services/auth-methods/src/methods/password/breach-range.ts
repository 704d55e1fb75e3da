import { createHash } from 'node:crypto';
import { request } from 'undici';
import type { Agent } from 'undici';
import { outboundAgent } from '@sesame/platform/http';
import type { Logger } from '@sesame/platform';

/**
 * The optional k-anonymity breach lookup (the "range" API of Pwned Passwords and compatible
 * services): only the first 5 hex characters of the password's SHA-1 leave the process, the
 * service answers every known suffix with that prefix (`SUFFIX:COUNT` lines, padded), and the
 * match is made here. A service that does not answer in time lets the password through (the
 * shipped lists still apply) and is logged: sign-ups do not depend on a third party. Through
 * HTTPS_PROXY unless NO_PROXY names the service.
 */
export class BreachRange {
  private readonly dispatcher: Agent;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {
    this.dispatcher = outboundAgent({ connectTimeoutMs: timeoutMs, keepAliveTimeout: 10_000 });
  }

  async isBreached(plainText: string): Promise<boolean> {
    const digest = createHash('sha1').update(plainText, 'utf8').digest('hex').toUpperCase();
    const prefix = digest.slice(0, 5);
    const suffix = digest.slice(5);
    try {
      const answer = await request(`${this.baseUrl.replace(/\/?$/, '/')}${prefix}`, {
        headers: { 'add-padding': 'true', 'user-agent': 'sesame' },
        dispatcher: this.dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const body = await answer.body.text();
      if (answer.statusCode !== 200) throw new Error(`answered ${answer.statusCode}`);
      return body.split('\n').some((line) => {
        const [candidate, count] = line.trim().split(':');
        return candidate?.toUpperCase() === suffix && Number(count) > 0;
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'breached-password lookup unavailable; the shipped lists still apply');
      return false;
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
