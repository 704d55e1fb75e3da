import type { ArgsOf, ItemOf, Method, OperationOf, PathsOf, ResponseOf } from './operations';
import { apiErrorOf } from './errors';
import { isErrorLine, ndjsonLines, SesameStreamError } from './ndjson';
import { CursorIterator, PageIterator } from './pagination';
import type { CursorPage, ListPage } from './pagination';
import { resourcesOf } from './resources';
import { TokenCache } from './token';
import { defaultRetry, Transport } from './transport';
import type { CallOptions, RetryOptions } from './transport';

export interface SesameOptions {
  /** The public URL of the Sesame gateway, e.g. `https://sesame.example.com`. */
  baseUrl: string;
  /** The API key (client) id and secret. */
  clientId: string;
  clientSecret: string;
  /** Retries on 429/503 (defaults: 3 attempts, 500 ms backoff doubled, 30 s at most). */
  retry?: Partial<RetryOptions>;
  /** How long before its expiry the access token is fetched again (default 60 s). */
  tokenRefreshMarginMs?: number;
}

/** The official client of the Sesame API. */
export class Sesame {
  readonly baseUrl: string;
  private readonly transport: Transport;
  private readonly resources = resourcesOf(this);
  readonly organizations = this.resources.organizations;
  readonly users = this.resources.users;
  readonly admins = this.resources.admins;
  readonly redirectUris = this.resources.redirectUris;
  readonly ssoConnections = this.resources.ssoConnections;
  readonly directorySyncs = this.resources.directorySyncs;
  readonly passwords = this.resources.passwords;
  readonly magicLinks = this.resources.magicLinks;
  readonly totp = this.resources.totp;
  readonly webhooks = this.resources.webhooks;
  readonly webhookEvents = this.resources.webhookEvents;
  readonly events = this.resources.events;
  readonly relays = this.resources.relays;
  readonly userMetakeys = this.resources.userMetakeys;

  constructor(options: SesameOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const tokens = new TokenCache(
      { baseUrl: this.baseUrl, clientId: options.clientId, clientSecret: options.clientSecret },
      options.tokenRefreshMarginMs,
    );
    this.transport = new Transport(this.baseUrl, tokens, { ...defaultRetry, ...options.retry });
  }

  /**
   * Any operation of the API, typed by the OpenAPI document:
   * `sesame.request('get', '/api/v2/org/{org_domain}/users', { params: { org_domain: 'acme' } })`.
   */
  request<M extends Method, P extends PathsOf<M>>(
    method: M,
    path: P,
    ...[options]: ArgsOf<OperationOf<P, M>>
  ): Promise<ResponseOf<OperationOf<P, M>>> {
    // Typed by the signature: comparing these with the unions of every operation is too complex for tsc.
    const call = (options as unknown as CallOptions | undefined) ?? {};
    return this.transport.call(method, path, call) as Promise<never>;
  }

  /** Every item of a list operation, following its pages (`query.per_page` sets their size). */
  paginate<P extends PathsOf<'get'>>(path: P, ...[options]: ArgsOf<OperationOf<P, 'get'>>): PageIterator<ItemOf<P>> {
    const call = (options ?? {}) as CallOptions;
    return new PageIterator(
      (page) => this.transport.call('get', path, { ...call, query: { ...call.query, page } }) as Promise<ListPage<ItemOf<P>>>,
    );
  }

  /** Every item of a cursor list operation (`{ data, list_metadata }`), following `after` while `has_more`. */
  paginateCursor<P extends PathsOf<'get'>>(path: P, ...[options]: ArgsOf<OperationOf<P, 'get'>>): CursorIterator<ItemOf<P>> {
    const call = (options ?? {}) as CallOptions;
    const from = call.query?.after as string | undefined;
    return new CursorIterator(
      (after) => this.transport.call('get', path, { ...call, query: { ...call.query, after } }) as Promise<CursorPage<ItemOf<P>>>,
      from,
    );
  }

  /**
   * The lines of an NDJSON operation, parsed, as the gateway streams them (reading no faster than
   * the caller iterates: the gateway waits). A final error line is thrown as a `SesameStreamError`
   * whose `after` resumes the stream.
   */
  async *streamLines<P extends PathsOf<'get'>>(path: P, ...[options]: ArgsOf<OperationOf<P, 'get'>>): AsyncGenerator<unknown> {
    const call = (options ?? {}) as CallOptions;
    const response = await this.transport.send('get', path, {
      ...call,
      headers: { accept: 'application/x-ndjson', ...call.headers },
    });
    if (!response.body) return;
    for await (const line of ndjsonLines(response.body)) {
      if (isErrorLine(line)) throw new SesameStreamError(apiErrorOf(response.status, response.headers, line), line.after);
      yield line;
    }
  }
}
