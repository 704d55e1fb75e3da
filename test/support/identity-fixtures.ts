import type { ApiKey, System } from './system';

export const notFound = {
  error: { type: 'resource_not_found', message: 'Resource Not Found', doc_urls: ['http://localhost:8000/api'] },
};

export const unauthorized = {
  error: {
    type: 'unauthorized',
    message: 'Missing an api key with the requested privilegies',
    doc_urls: ['http://localhost:8000/how-to-use-api-key'],
  },
};

/** Creates an organization in the environment of `key` (the system's sandbox key by default) and answers its domain. */
export async function createOrganization(
  system: System,
  name: string,
  body: Record<string, unknown> = {},
  key?: ApiKey,
): Promise<string> {
  const { status, body: organization } = await system.request('POST', '/api/v2/organizations', {
    body: { name, ...body },
    ...(key ? { key } : {}),
  });
  if (status !== 201) throw new Error(`organization ${name}: ${status} ${JSON.stringify(organization)}`);
  return organization.domain as string;
}

/** Polls `probe` until it answers true (for reactions that run after the request returned). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
