import type { System } from '../../test/support/system';

/** Creates `count` users in an organization through the gateway, one at a time; answers them in order. */
export async function seedUsers(
  system: System,
  domain: string,
  count: number,
  emailOf: (i: number) => string,
): Promise<{ id: string; email: string }[]> {
  const users: { id: string; email: string }[] = [];
  for (let i = 0; i < count; i++) {
    const user = await system.request('POST', `/api/v2/org/${domain}/users`, { body: { email: emailOf(i) } });
    if (user.status !== 201) throw new Error(`seed user: ${user.status} ${JSON.stringify(user.body)}`);
    users.push({ id: user.body.id as string, email: user.body.email as string });
  }
  return users;
}

/** A SCIM 2.0 User resource as a directory pushes it (Entra ID and Okta send `externalId` and `displayName` too). */
export const scimUser = (userName: string, extra: { externalId?: string; displayName?: string } = {}) =>
  JSON.stringify({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    emails: [{ value: userName, type: 'work', primary: true }],
    ...extra,
  });

/**
 * A directory sync of the organization and `count` users pushed through it, `concurrency` at a
 * time: the SCIM base path, its bearer token, the SCIM ids of the users in order, and how long
 * the provisioning took.
 */
export async function seedScimDirectory(
  system: System,
  domain: string,
  count: number,
  userOf: (i: number) => string | { userName: string; externalId?: string; displayName?: string },
  concurrency = 1,
): Promise<{ path: string; token: string; users: string[]; seconds: number }> {
  const directory = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, { body: {} });
  if (directory.status !== 201) throw new Error(`seed directory sync: ${directory.status} ${JSON.stringify(directory.body)}`);
  const path = new URL(directory.body.scim_base_url as string).pathname;
  const token = directory.body.auth_secret_token.value as string;
  const users: string[] = new Array<string>(count);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const user = userOf(i);
      const { userName, ...extra } = typeof user === 'string' ? { userName: user } : user;
      const answer = await system.request('POST', `${path}/Users`, {
        token,
        headers: { 'content-type': 'application/scim+json' },
        body: scimUser(userName, extra),
      });
      if (answer.status !== 201) throw new Error(`seed SCIM user: ${answer.status} ${JSON.stringify(answer.body)}`);
      users[i] = answer.body.id as string;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return { path, token, users, seconds: (performance.now() - started) / 1_000 };
}
