import type { Organization, OrganizationEvent, PasswordConnectionEvent, SsoConnectionEvent } from '@sesame/contracts';
import { subjects } from '@sesame/contracts';
import type { Commit, DomainEvent, RecordedEvent } from '@sesame/platform';
import { organizationDeletionReactor } from './core/organization-deletion/organization-deletion.reactor';
import { acmeId, anOrganization, authMethodsSpecification, identityAnswers, sandboxKey } from './auth-methods.spec-kit';

jest.setTimeout(60_000);

const sso = subjects.authMethods.sso;
const password = subjects.authMethods.password;
const totp = subjects.authMethods.totp;
const params = { org_domain: 'acme' };
/** Acme deleted, then created again with the same domain: another organization (another id). */
const recreatedAcmeId = '00000000-0000-4000-8000-0000000000ad';
const tenantOf = (organization_id: string) => ({ organization_id, environment: 'sandbox' });

/** Acme's SSO connection as stored before connections named their organization (stream named by its SP id). */
const legacyConnection: SsoConnectionEvent = {
  type: 'SsoConnectionCreated',
  data: {
    id: '00000000-0000-4000-8000-00000000c001',
    sp_id: 'acme_sandbox',
    organization_domain: 'acme',
    environment: 'sandbox',
    settings: {
      active: true,
      provider_type: 'custom_saml',
      users_access_policy: 'provision_new_users',
      number_users_provisioning_limit: null,
      metadata: null,
      update_profile_only_at_creation: false,
      allow_idp_initiated: false,
      onboarding: null,
    },
    idp: null,
    sp_key: { certificate_pem: 'CERT', encrypted_private_key_pem: 'SEALED' },
    at: '2025-06-01T00:00:00.000Z',
  },
};

/** Acme's password connection as stored before connections were keyed by their organization (stream named by its domain), naming `organizationId` or none. */
const legacyPasswordConnection = (organizationId?: string): PasswordConnectionEvent => ({
  type: 'PasswordConnectionCreated',
  data: {
    active: true,
    plain_text_min_length: 10,
    plain_text_max_length: 128,
    pepper_rotation_period: 86_400,
    ...(organizationId ? { organization_id: organizationId } : {}),
    environment: 'sandbox',
    organization_domain: 'acme',
    at: '2025-06-01T00:00:00.000Z',
  },
});

/** The SSO connection of the organization `organizationId`, on its stream. */
const connectionOf = (organizationId: string): [string, SsoConnectionEvent[]] => [
  `ssoConnection-sandbox:${organizationId}`,
  [{ ...legacyConnection, data: { ...legacyConnection.data, organization_id: organizationId } }],
];

/** The auth-methods service with identity's organization `acme` (swapped by `recreate`) and its reaction to deletions. */
async function acmeAndItsDeletion() {
  const organizations: Organization[] = [anOrganization()];
  const { spec } = await authMethodsSpecification(identityAnswers(organizations, []));
  const { runtime } = spec;
  const reactor = organizationDeletionReactor({
    runtime,
    projections: runtime.projections,
    ssoConnections: { documents: runtime.readModels.collection('sso_connections_v2') },
    relays: { documents: runtime.readModels.collection('relays_v2') },
    logger: runtime.logger,
    now: () => new Date(),
  });
  let position = 0n;
  /** Identity's `OrganizationDeleted` of acme (`organizationId` null: recorded before deletions named it), delivered to the reaction. */
  const deleteAcme = async (organizationId: string | null) => {
    const data = {
      ...(organizationId ? { organization_id: organizationId } : {}),
      domain: 'acme',
      environment: 'sandbox' as const,
    };
    const event = {
      id: `deleted-${(position += 1n)}`,
      type: 'OrganizationDeleted',
      data: { ...data, at: '2026-06-01T00:00:00.000Z' },
      stream: 'organization-sandbox:acme',
      revision: 1,
      metadata: { correlationId: 'identity', occurredAt: '2026-06-01T00:00:00.000Z' },
    } satisfies RecordedEvent & OrganizationEvent;
    await reactor({ position, events: [event] } satisfies Commit);
    await runtime.projections.caughtUp();
  };
  const recreate = () => organizations.splice(0, 1, anOrganization({ id: recreatedAcmeId }));
  const stream = async (name: string) => (await runtime.eventStore.readStream(name)).events;
  const given = async (name: string, events: DomainEvent[]) => {
    await runtime.eventStore.appendToStream(name, events, {
      expectedRevision: 'any',
      metadata: { correlationId: 'given', occurredAt: '2026-01-01T00:00:00.000Z' },
    });
    await runtime.projections.caughtUp();
  };
  return { spec, deleteAcme, recreate, stream, given };
}

describe('organization deletion in the auth-methods service (its handlers and reaction on in-memory stores, identity answered by a table)', () => {
  it('names the password connection’s organization in its data and on the envelope of its events', async () => {
    const { spec, stream } = await acmeAndItsDeletion();
    await spec.request(password.updateConnection, { params, query: {}, body: { active: false } }, sandboxKey);
    const [passwordConnection] = await stream(`passwordConnection-sandbox:${acmeId}`);
    expect(passwordConnection).toMatchObject({ type: 'PasswordConnectionCreated', data: { organization_id: acmeId } });
    expect(passwordConnection?.metadata.tenant).toEqual(tenantOf(acmeId));
  });

  it('gives an organization re-created before the old one’s deletion is handled its own SSO connection, which the deletion leaves', async () => {
    const { spec, deleteAcme, recreate, stream, given } = await acmeAndItsDeletion();
    await given(...connectionOf(acmeId));
    recreate();
    const created = await spec.request(sso.create, { params, query: {}, body: { allow_idp_initiated: true } }, sandboxKey);
    expect(created.reply).toMatchObject({ ok: true, status: 201 });
    const [own] = await stream(`ssoConnection-sandbox:${recreatedAcmeId}`);
    expect(own).toMatchObject({
      type: 'SsoConnectionCreated',
      data: { organization_id: recreatedAcmeId, sp_id: 'acme_sandbox' },
    });
    expect(own?.metadata.tenant).toEqual(tenantOf(recreatedAcmeId));
    const current = async () => (await spec.request(sso.get, { params, query: {}, body: {} }, sandboxKey)).reply;
    expect(await current()).toMatchObject({ ok: true, body: { allow_idp_initiated: true } });
    await deleteAcme(acmeId);
    expect((await stream(`ssoConnection-sandbox:${acmeId}`)).at(-1)?.type).toBe('SsoConnectionDeleted');
    expect(await current()).toMatchObject({ ok: true, body: { allow_idp_initiated: true } });
  });

  it('removes the deleted organization’s connections; a late or redelivered deletion leaves those of the organization re-created with its domain alone', async () => {
    const { spec, deleteAcme, recreate, stream, given } = await acmeAndItsDeletion();
    await given(...connectionOf(acmeId));
    await spec.request(password.updateConnection, { params, query: {}, body: { active: false } }, sandboxKey);
    await spec.request(totp.updateConnection, { params, query: {}, body: { active: true } }, sandboxKey);
    await deleteAcme(acmeId);
    expect((await stream(`ssoConnection-sandbox:${acmeId}`)).map((event) => event.type)).toEqual([
      'SsoConnectionCreated',
      'SsoConnectionDeleted',
    ]);
    expect((await stream(`totpConnection-sandbox:${acmeId}`)).at(-1)?.type).toBe('TotpConnectionDeleted');
    expect((await stream(`passwordConnection-sandbox:${acmeId}`)).at(-1)?.type).toBe('PasswordConnectionDeleted');
    await spec.when(sso.get, { params, query: {}, body: {} }, sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'resource_not_found' } },
    });

    recreate();
    await given(...connectionOf(recreatedAcmeId));
    await spec.request(password.updateConnection, { params, query: {}, body: { plain_text_min_length: 12 } }, sandboxKey);
    await spec.request(totp.updateConnection, { params, query: {}, body: { active: true } }, sandboxKey);
    const before = {
      sso: await stream(`ssoConnection-sandbox:${recreatedAcmeId}`),
      password: await stream(`passwordConnection-sandbox:${recreatedAcmeId}`),
      totp: await stream(`totpConnection-sandbox:${recreatedAcmeId}`),
    };
    await deleteAcme(acmeId);
    expect({
      sso: await stream(`ssoConnection-sandbox:${recreatedAcmeId}`),
      password: await stream(`passwordConnection-sandbox:${recreatedAcmeId}`),
      totp: await stream(`totpConnection-sandbox:${recreatedAcmeId}`),
    }).toEqual(before);
    const { reply } = await spec.request(sso.get, { params, query: {}, body: {} }, sandboxKey);
    expect(reply).toMatchObject({ ok: true, status: 200, body: { sp_id: 'acme_sandbox' } });
    const passwordReply = await spec.request(password.getConnection, { params, query: {}, body: {} }, sandboxKey);
    expect(passwordReply.reply).toMatchObject({ ok: true, body: { plain_text_min_length: 12 } });
  });

  it('keeps serving a connection stored before connections named their organization, on its stream, until its organization is deleted', async () => {
    const { spec, deleteAcme, stream, given } = await acmeAndItsDeletion();
    await given('ssoConnection-acme_sandbox', [legacyConnection]);
    const { reply } = await spec.request(sso.get, { params, query: {}, body: {} }, sandboxKey);
    expect(reply).toMatchObject({ ok: true, status: 200, body: { id: legacyConnection.data.id } });
    await spec.request(sso.update, { params, query: {}, body: { allow_idp_initiated: true } }, sandboxKey);
    expect((await stream('ssoConnection-acme_sandbox')).map((event) => event.type)).toEqual([
      'SsoConnectionCreated',
      'SsoConnectionUpdated',
    ]);
    await spec.when(sso.create, { params, query: {}, body: {} }, sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'sso_connection_already_exists' } },
      calls: [{ subject: subjects.identity.organizations.get, input: { params, query: {}, body: {} } }],
    });
    await deleteAcme(acmeId);
    expect((await stream('ssoConnection-acme_sandbox')).at(-1)?.type).toBe('SsoConnectionDeleted');
  });

  it('keeps serving a password connection stored under its domain while it names no other organization, on its stream, until its organization is deleted', async () => {
    const { spec, deleteAcme, stream, given } = await acmeAndItsDeletion();
    await given('passwordConnection-sandbox:acme', [legacyPasswordConnection()]);
    const current = async () => (await spec.request(password.getConnection, { params, query: {}, body: {} }, sandboxKey)).reply;
    expect(await current()).toMatchObject({ ok: true, status: 200, body: { plain_text_min_length: 10 } });
    await spec.request(password.updateConnection, { params, query: {}, body: { plain_text_min_length: 14 } }, sandboxKey);
    expect((await stream('passwordConnection-sandbox:acme')).map((event) => event.type)).toEqual([
      'PasswordConnectionCreated',
      'PasswordConnectionUpdated',
    ]);
    expect((await stream('passwordConnection-sandbox:acme')).at(-1)?.data).toMatchObject({ organization_id: acmeId });
    expect(await stream(`passwordConnection-sandbox:${acmeId}`)).toEqual([]);
    expect(await current()).toMatchObject({ ok: true, body: { plain_text_min_length: 14 } });
    await spec.when(password.createConnection, { params, query: {}, body: {} }, sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'password_connection_already_exists' } },
      calls: [{ subject: subjects.identity.organizations.get, input: { params, query: {}, body: {} } }],
    });
    await deleteAcme(acmeId);
    expect((await stream('passwordConnection-sandbox:acme')).at(-1)?.type).toBe('PasswordConnectionDeleted');
    expect(await current()).toMatchObject({ ok: true, body: { plain_text_min_length: 8 } });
  });

  it('does not give an organization re-created with the domain the password connection its domain stored for the old one', async () => {
    const { spec, deleteAcme, recreate, stream, given } = await acmeAndItsDeletion();
    await given('passwordConnection-sandbox:acme', [legacyPasswordConnection(acmeId)]);
    recreate();
    const current = async () => (await spec.request(password.getConnection, { params, query: {}, body: {} }, sandboxKey)).reply;
    expect(await current()).toMatchObject({ ok: true, body: { plain_text_min_length: 8 } });
    const created = await spec.request(
      password.createConnection,
      { params, query: {}, body: { plain_text_min_length: 16 } },
      sandboxKey,
    );
    expect(created.reply).toMatchObject({ ok: true, status: 201, body: { plain_text_min_length: 16 } });
    expect((await stream(`passwordConnection-sandbox:${recreatedAcmeId}`)).map((event) => event.type)).toEqual([
      'PasswordConnectionCreated',
    ]);
    await deleteAcme(acmeId);
    expect((await stream('passwordConnection-sandbox:acme')).at(-1)?.type).toBe('PasswordConnectionDeleted');
    expect((await stream(`passwordConnection-sandbox:${recreatedAcmeId}`)).map((event) => event.type)).toEqual([
      'PasswordConnectionCreated',
    ]);
    expect(await current()).toMatchObject({ ok: true, body: { plain_text_min_length: 16 } });
  });

  it('given a deletion recorded before deletions named the organization, removes what its domain names only', async () => {
    const { spec, deleteAcme, stream, given } = await acmeAndItsDeletion();
    await given('ssoConnection-acme_sandbox', [legacyConnection]);
    await spec.request(totp.updateConnection, { params, query: {}, body: { active: true } }, sandboxKey);
    await deleteAcme(null);
    expect((await stream('ssoConnection-acme_sandbox')).at(-1)?.type).toBe('SsoConnectionDeleted');
    // A stream named by the organization's id cannot be told from a re-created organization's by its domain: left.
    expect((await stream(`totpConnection-sandbox:${acmeId}`)).map((event) => event.type)).toEqual(['TotpConnectionUpdated']);
  });
});
