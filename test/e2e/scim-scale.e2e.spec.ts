import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';

/**
 * Provisioning many users and groups through SCIM keeps every user findable by filter. The e2e
 * tier runs a bounded size; the full size of the issue (10,000 users, 500 groups) runs with
 * `SESAME_SCIM_SCALE_USERS=10000 SESAME_SCIM_SCALE_GROUPS=500` and prints how long each phase took.
 */
const users = Number(process.env.SESAME_SCIM_SCALE_USERS ?? 200);
const groups = Number(process.env.SESAME_SCIM_SCALE_GROUPS ?? 10);
const membersPerGroup = 20;
const concurrency = 8;

async function inParallel(count: number, task: (index: number) => Promise<void>): Promise<number> {
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return Date.now() - started;
}

describe(`SCIM at scale: ${users} users and ${groups} groups`, () => {
  let system: System;
  beforeAll(async () => {
    system = await System.start({ env: { SESAME_LOG_LEVEL: 'warn' } });
  });
  afterAll(async () => {
    await system?.stop();
  });

  it(
    'keeps every provisioned user findable by filter',
    async () => {
      const domain = await createOrganization(system, 'Scale Corp');
      const { body } = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, { body: { provider_type: 'okta' } });
      const base = new URL(body.scim_base_url).pathname;
      const token = body.auth_secret_token.value as string;
      const scim = (method: string, path: string, payload?: unknown) =>
        system.request(method, `${base}${path}`, { token, ...(payload === undefined ? {} : { body: payload }) });

      const ids: string[] = [];
      const usersMs = await inParallel(users, async (i) => {
        const answer = await scim('POST', '/Users', {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: `user${i}@scale.example`,
          externalId: `ext-${i}`,
          name: { givenName: `User${i}`, familyName: 'Scale' },
          emails: [{ value: `user${i}@scale.example`, type: 'work', primary: true }],
        });
        if (answer.status !== 201) throw new Error(`user ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
        ids[i] = answer.body.id;
      });
      const groupsMs = await inParallel(groups, async (g) => {
        const members = Array.from({ length: membersPerGroup }, (_, k) => ({ value: ids[(g * membersPerGroup + k) % users] }));
        const answer = await scim('POST', '/Groups', {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
          displayName: `Group ${g}`,
          members,
        });
        if (answer.status !== 201) throw new Error(`group ${g}: ${answer.status} ${JSON.stringify(answer.body)}`);
      });
      const missing: number[] = [];
      const lookupsMs = await inParallel(users, async (i) => {
        const filter = encodeURIComponent(`userName eq "USER${i}@scale.example"`);
        const answer = await scim('GET', `/Users?filter=${filter}&attributes=userName`);
        if (answer.body?.totalResults !== 1 || answer.body.Resources[0].id !== ids[i]) missing.push(i);
      });
      expect(missing).toEqual([]);
      const sample = Math.floor(users / 2);
      const byExternalId = await scim('GET', `/Users?filter=${encodeURIComponent(`externalId eq "ext-${sample}"`)}`);
      expect(byExternalId.body.Resources.map((user: { id: string }) => user.id)).toEqual([ids[sample]]);
      expect((await scim('GET', '/Users?count=1')).body.totalResults).toBe(users);
      expect((await scim('GET', '/Groups?count=1')).body.totalResults).toBe(groups);
      console.log(
        `SCIM scale: ${users} users created in ${usersMs} ms, ${groups} groups in ${groupsMs} ms, ${users} filtered lookups in ${lookupsMs} ms`,
      );
    },
    120_000 + users * 100,
  );
});
