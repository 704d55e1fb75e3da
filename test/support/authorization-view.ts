import type { Owner } from './authorization-identifiers';
import type { RequestTemplate } from './authorization-requests';
import { render } from './authorization-render';
import { mapLimit } from './authorization-world';
import type { AuthorizationWorld } from './authorization-world';
import { rawRequest } from './raw-http';

/** One read of the owner's view: where it was made and what it answered. */
export type View = Map<string, string>;

/**
 * What an owner can read: every read operation of the table (API key or directory token),
 * generated in each context of the world and answered with the owner's credentials, grouped by
 * whose state it shows (an organization of an environment, or the environment's own resources).
 */
export class OwnerView {
  private constructor(
    private readonly world: AuthorizationWorld,
    private readonly reads: Map<string, RequestTemplate>,
  ) {}

  static of(world: AuthorizationWorld, templates: RequestTemplate[]): OwnerView {
    const reads = new Map<string, RequestTemplate>();
    for (const template of templates) {
      const { operation, context } = template;
      if (operation.method !== 'get' || (operation.auth !== 'api_key' && operation.auth !== 'scim')) continue;
      const organizational = template.slots.some((slot) => slot.owner?.org !== undefined);
      const bucket = organizational ? `${context.env}/${context.org}` : context.env;
      reads.set(`${bucket} ${operation.operationId}${template.variant ? ` (${template.variant})` : ''}`, template);
    }
    return new OwnerView(world, reads);
  }

  /** Everything `owner` can read: an organization's reads, or for an environment its own and both organizations'. */
  async read(owner: Owner): Promise<View> {
    const keys = [...this.reads.keys()].filter((key) => {
      const bucket = key.slice(0, key.indexOf(' '));
      return owner.org ? bucket === `${owner.env}/${owner.org}` : bucket.split('/')[0] === owner.env;
    });
    const answers = await mapLimit(keys, 8, async (key) => {
      const template = this.reads.get(key) as RequestTemplate;
      const answer = await rawRequest(this.world.system.baseUrl, await render(this.world.system, template, template.slots));
      return `${answer.status} ${answer.text}`;
    });
    return new Map(keys.map((key, index) => [key, answers[index] as string]));
  }

  /** Reads the whole world until two readings agree (reactions to the build settle), at most `timeoutMs`. */
  async settled(timeoutMs = 30_000): Promise<View> {
    const started = Date.now();
    let previous = await this.readAll();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const next = await this.readAll();
      if (difference(previous, next) === '' || Date.now() - started > timeoutMs) return next;
      previous = next;
    }
  }

  async readAll(): Promise<View> {
    const [sandbox, production] = await Promise.all([this.read({ env: 'sandbox' }), this.read({ env: 'production' })]);
    return new Map([...sandbox, ...production]);
  }
}

/** The reads that changed between two views, the first few shown before and after (shortened). */
export function difference(before: View, after: View): string {
  const changed = [...after].filter(([key, text]) => before.get(key) !== text);
  const shown = changed
    .slice(0, 4)
    .map(([key, text]) => `${key}:\n      before ${before.get(key)?.slice(0, 300)}\n      after  ${text.slice(0, 300)}`);
  if (changed.length > shown.length) shown.push(`and ${changed.length - shown.length} more reads`);
  return shown.join('\n    ');
}
