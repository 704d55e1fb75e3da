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

/** A SCIM 2.0 User resource as a directory pushes it. */
export const scimUser = (userName: string) =>
  JSON.stringify({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    emails: [{ value: userName, primary: true }],
  });

/**
 * A directory sync of the organization and `count` users pushed through it: the SCIM base path,
 * its bearer token and the SCIM ids of the users.
 */
export async function seedScimDirectory(
  system: System,
  domain: string,
  count: number,
  userNameOf: (i: number) => string,
): Promise<{ path: string; token: string; users: string[] }> {
  const directory = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, { body: {} });
  if (directory.status !== 201) throw new Error(`seed directory sync: ${directory.status} ${JSON.stringify(directory.body)}`);
  const path = new URL(directory.body.scim_base_url as string).pathname;
  const token = directory.body.auth_secret_token.value as string;
  const users: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await system.request('POST', `${path}/Users`, {
      token,
      headers: { 'content-type': 'application/scim+json' },
      body: scimUser(userNameOf(i)),
    });
    if (answer.status !== 201) throw new Error(`seed SCIM user: ${answer.status} ${JSON.stringify(answer.body)}`);
    users.push(answer.body.id as string);
  }
  return { path, token, users };
}
