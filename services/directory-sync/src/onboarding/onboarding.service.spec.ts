import { subjects } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { anOrganization, serviceSpecification } from '@sesame/platform/testing';
import { assembleDirectorySync, directorySyncConfigSchema } from '../index';

const { onboarding } = subjects.directorySync;
const scope = { organization_domain: 'acme', environment: 'sandbox' as const };
const organizationGet = subjects.identity.organizations.get;
const ok = (status: number, body: unknown): RpcReply => ({ ok: true, status, body });
const notFound: RpcReply = { ok: false, error: { kind: 'error', code: 'resource_not_found' } };

/** The directory-sync service with identity knowing the organization `acme` (in each environment), and no other. */
async function service() {
  const config = directorySyncConfigSchema.parse({ SESAME_PUBLIC_URL: 'https://sesame.test' });
  return serviceSpecification({
    service: 'directory-sync',
    config,
    assemble: (runtime, rpc) => assembleDirectorySync(runtime, config, rpc),
    calls: {
      [organizationGet]: (input: { params: { org_domain: string } }) =>
        input.params.org_domain === 'acme' ? ok(200, anOrganization()) : notFound,
    },
  });
}
/** Every operation asks identity for the organization's id first: its directory sync is kept under it. */
const organizationAsked = { subject: organizationGet, input: { params: { org_domain: 'acme' }, query: {}, body: {} } };

describe('the onboarding page’s directory sync in the directory-sync service (in-memory stores)', () => {
  it('creates the directory sync once, its token answered then only; set up again, only its provider changes', async () => {
    const spec = await service();
    await spec.when(onboarding.find, scope).then({ reply: ok(200, { directory_sync: null }), calls: [organizationAsked] });
    await spec.when(onboarding.status, scope).then({ reply: notFound, calls: [organizationAsked] });
    const created = await spec.when(onboarding.setUp, { ...scope, provider_type: 'okta' }).then({
      reply: ok(
        200,
        expect.objectContaining({
          __domain__: 'acme',
          provider_type: 'okta',
          active: true,
          auth_secret_token: expect.objectContaining({ value: expect.stringMatching(/^scim_/) }),
        }),
      ),
      // Identity asked once for the organization's id, the directory syncs under it and its domain found empty, then created.
      events: [expect.objectContaining({ type: 'DirectorySyncCreated' })],
      calls: [organizationAsked],
    });
    const id = (created.reply as { body: { id: string } }).body.id;
    await spec.when(onboarding.setUp, { ...scope, provider_type: 'jumpcloud' }).then({
      reply: ok(
        200,
        expect.objectContaining({ id, provider_type: 'jumpcloud', auth_secret_token: expect.objectContaining({ value: null }) }),
      ),
      events: [expect.objectContaining({ type: 'DirectorySyncUpdated' })],
      calls: [organizationAsked],
    });
    await spec.when(onboarding.find, scope).then({
      reply: ok(200, {
        directory_sync: expect.objectContaining({ id, auth_secret_token: expect.objectContaining({ value: null }) }),
      }),
      calls: [organizationAsked],
    });
  });

  it('answers two first set-ups at once (two tabs) with one directory sync, its token in one answer only', async () => {
    const spec = await service();
    const [first, second] = await Promise.all([
      spec.runtime.router.dispatch(onboarding.setUp, {
        meta: { correlationId: 'a' },
        input: { ...scope, provider_type: 'okta' },
      }),
      spec.runtime.router.dispatch(onboarding.setUp, {
        meta: { correlationId: 'b' },
        input: { ...scope, provider_type: 'okta' },
      }),
    ]);
    const bodies = [first, second].map(
      (reply) => (reply as { ok: true; body: { id: string; auth_secret_token: { value: string | null } } }).body,
    );
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(bodies[0]?.id).toBe(bodies[1]?.id);
    expect(bodies.filter((body) => body.auth_secret_token.value !== null)).toHaveLength(1);
  });

  it('rotates the token of an existing directory sync only', async () => {
    const spec = await service();
    await spec.when(onboarding.rotateToken, scope).then({ reply: notFound, calls: [organizationAsked] });
    await spec.request(onboarding.setUp, { ...scope, provider_type: 'generic' });
    await spec.when(onboarding.rotateToken, scope).then({
      reply: ok(
        200,
        expect.objectContaining({ auth_secret_token: expect.objectContaining({ value: expect.stringMatching(/^scim_/) }) }),
      ),
      events: [expect.objectContaining({ type: 'DirectorySyncTokenRotated' })],
      calls: [organizationAsked],
    });
  });

  it('answers the status from the SCIM activity recorded and the resources provisioned, for its own directory only', async () => {
    const spec = await service();
    const created = await spec.request(onboarding.setUp, { ...scope, provider_type: 'okta' });
    const id = (created.reply as { body: { id: string } }).body.id;
    await spec.when(onboarding.status, scope).then({
      reply: ok(200, {
        directory_sync_id: id,
        last_request_at: null,
        users_provisioned: 0,
        groups_provisioned: 0,
        last_error: null,
      }),
      calls: [organizationAsked],
    });
    const data = { directory_sync_id: id, ...scope };
    const error = { status: 401, detail: 'Authentication failed: the bearer token is not the one of this directory sync' };
    await spec
      .given({
        [`scimActivity-${id}`]: [
          { type: 'ScimActivityRecorded', data: { ...data, at: '2026-01-01T10:00:00.000Z', error } },
          { type: 'ScimActivityRecorded', data: { ...data, at: '2026-01-01T10:05:00.000Z', error: null } },
        ],
      })
      .when(onboarding.status, scope)
      .then({
        reply: ok(200, {
          directory_sync_id: id,
          last_request_at: '2026-01-01T10:05:00.000Z',
          users_provisioned: 0,
          groups_provisioned: 0,
          last_error: { at: '2026-01-01T10:00:00.000Z', ...error },
        }),
        calls: [organizationAsked],
      });
    const otherAsked = { ...organizationAsked, input: { ...organizationAsked.input, params: { org_domain: 'other' } } };
    await spec.when(onboarding.status, { ...scope, organization_domain: 'other' }).then({ reply: notFound, calls: [otherAsked] });
    await spec
      .when(onboarding.status, { ...scope, environment: 'production' })
      .then({ reply: notFound, calls: [organizationAsked] });
  });
});
