import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import newman from 'newman';

/** Microsoft's SCIM reference test collection (see its README), copied unedited with its licence. */
export const conformanceDirectory = resolve(__dirname, '../conformance/scim');
const collectionFile = 'microsoft-scim-reference.postman_collection.json';

export interface ConformanceFailure {
  request: string;
  assertion: string;
  message: string;
}

export interface ConformanceResult {
  requests: number;
  assertions: number;
  failures: ConformanceFailure[];
}

/**
 * Runs the collection with newman against a SCIM base URL. Every item runs but the "Get Token"
 * folder (it asks the reference server for a token; the directory's token is passed instead),
 * which is what the README's `--folder` selection does.
 */
export async function runScimConformance(options: { baseUrl: string; token: string }): Promise<ConformanceResult> {
  const collection = JSON.parse(readFileSync(resolve(conformanceDirectory, collectionFile), 'utf8')) as {
    item: { name: string }[];
  };
  collection.item = collection.item.filter((item) => item.name !== 'Get Token');
  const url = new URL(options.baseUrl);
  const envVar = [
    { key: 'Protocol', value: url.protocol.replace(':', '') },
    { key: 'Server', value: url.hostname },
    { key: 'Port', value: url.port ? `:${url.port}` : '' },
    { key: 'Api', value: url.pathname.replace(/^\//, '') },
    { key: 'token', value: options.token },
  ];
  return new Promise((resolvePromise, reject) => {
    newman.run({ collection: collection as never, envVar, reporters: [] }, (error, summary) => {
      if (error) return reject(error);
      resolvePromise({
        requests: summary.run.stats.requests.total ?? 0,
        assertions: summary.run.stats.assertions.total ?? 0,
        failures: summary.run.failures.map((failure) => ({
          request: (failure.source as { name?: string } | undefined)?.name ?? 'unknown',
          assertion: (failure.error as { test?: string }).test ?? failure.error.name,
          message: failure.error.message,
        })),
      });
    });
  });
}
