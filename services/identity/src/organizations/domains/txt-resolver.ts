import { Resolver } from 'node:dns/promises';
import type { TxtLookup } from '../domain/domain-verification';

/** Reads the TXT records of a DNS name (the resolver port of domain verification). */
export interface TxtResolver {
  resolveTxt(name: string): Promise<TxtLookup>;
}

/** DNS answers that mean "no TXT record there" rather than "the lookup failed". */
const notFoundCodes = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * The resolver of `node:dns/promises`: the servers given (`host` or `host:port`, from
 * `SESAME_DNS_SERVERS`), else the system's. Each TXT record's strings are joined (RFC 7208
 * section 3.3: a long value is split into strings of 255 bytes).
 */
export function dnsTxtResolver(servers: string[], timeoutMs = 5_000): TxtResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return {
    async resolveTxt(name) {
      try {
        const records = await resolver.resolveTxt(name);
        return { outcome: 'records', records: records.map((strings) => strings.join('')) };
      } catch (error) {
        if (notFoundCodes.has((error as NodeJS.ErrnoException).code ?? '')) return { outcome: 'not_found' };
        return { outcome: 'failed' };
      }
    },
  };
}
