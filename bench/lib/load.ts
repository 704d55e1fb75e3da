import autocannon from 'autocannon';

export interface LoadResult {
  /** Requests answered in all (for CPU per request). */
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request's body (e.g. unique names). */
  bodyFor?: (index: number) => string;
  /** Builds each request's path (e.g. lookups spread over many resources). */
  pathFor?: (index: number) => string;
  connections?: number;
  durationSeconds?: number;
}

/** HTTP load with autocannon from this process. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  let index = 0;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 16,
    duration: options.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 10),
    requests:
      options.bodyFor || options.pathFor
        ? [
            {
              setupRequest: (request: autocannon.Request) => {
                const i = index++;
                return {
                  ...request,
                  ...(options.bodyFor ? { body: options.bodyFor(i) } : {}),
                  ...(options.pathFor ? { path: options.pathFor(i) } : {}),
                };
              },
            },
          ]
        : undefined,
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** An autocannon result as a rate and latency percentiles. */
export const timedOf = (result: LoadResult) => ({ perSecond: result.requestsPerSecond, p50: result.p50Ms, p99: result.p99Ms });

/** Warns of the operations that had errors or non-2xx answers (their figures then count failures too). */
export function warnFailures(results: Record<string, LoadResult>): void {
  for (const [name, result] of Object.entries(results))
    if (result.errors + result.non2xx > 0) console.warn(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
}
