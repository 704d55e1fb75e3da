import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request's body (e.g. unique names). */
  bodyFor?: (index: number) => string;
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
    requests: options.bodyFor
      ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: options.bodyFor?.(index++) }) }]
      : undefined,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
