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

/** The status of an organization every service has taken in. */
export const readyStatus = {
  state: 'terminated',
  errors: [],
  progress_in_percentage: 100,
  estimated_time_to_complete_in_seconds: 0,
};

/** The status a created organization answers with: no service has taken it in yet. */
export const pendingStatus = {
  state: 'pending',
  errors: [],
  progress_in_percentage: 0,
  estimated_time_to_complete_in_seconds: 1,
};

/**
 * Waits until the organization `domain` (of the environment of `key`) is provisioned (`terminated`), every service
 * having confirmed it took it in, and answers it as GET does.
 */
export async function readyOrganization(system: System, domain: string, key?: ApiKey): Promise<any> {
  let organization: any;
  await eventually(async () => {
    const { status, body } = await system.request('GET', `/api/v2/organizations/${domain}`, key ? { key } : {});
    if (status !== 200) throw new Error(`organization ${domain}: ${status} ${JSON.stringify(body)}`);
    organization = body;
    return body.status.state === 'terminated';
  });
  return organization;
}
