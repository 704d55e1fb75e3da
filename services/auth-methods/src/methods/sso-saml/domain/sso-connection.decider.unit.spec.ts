import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deciderSpecification } from '@sesame/platform/testing';
import type { SsoConnectionEvent } from '@sesame/contracts';
import { parseIdpMetadata } from '../metadata/idp-metadata';
import { defaultSettings, ssoConnectionDecider } from './sso-connection.decider';
import type { SsoConnectionCommand } from './sso-connection.decider';

const spec = deciderSpecification(ssoConnectionDecider);
const at = '2026-06-01T00:00:00.000Z';
const later = '2026-06-02T00:00:00.000Z';
const okta = readFileSync(join(__dirname, '../metadata/fixtures/okta.xml'), 'utf8');
const google = readFileSync(join(__dirname, '../metadata/fixtures/google.xml'), 'utf8');
const idpOf = (xml: string) => {
  const parsed = parseIdpMetadata(xml, new Date(at));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.idp;
};
const spKey = { certificate_pem: 'CERT', encrypted_private_key_pem: 'SEALED' };
const encryptionKey = { certificate_pem: 'ENC CERT', encrypted_private_key_pem: 'ENC SEALED' };
const identity = {
  id: 'c1',
  sp_id: 'acme_sandbox',
  organization_id: 'org-1',
  organization_domain: 'acme',
  environment: 'sandbox' as const,
};
const create = (settings: Record<string, unknown>): SsoConnectionCommand => ({
  type: 'CreateSsoConnection',
  data: { ...identity, settings, sp_key: spKey, sp_encryption_key: encryptionKey, at },
});
const update = (settings: Record<string, unknown>): SsoConnectionCommand => ({
  type: 'UpdateSsoConnection',
  data: { settings, at: later },
});
const created: SsoConnectionEvent = {
  type: 'SsoConnectionCreated',
  data: { ...identity, settings: defaultSettings, idp: null, sp_key: spKey, sp_encryption_key: encryptionKey, at },
};

describe('SSO connection decider', () => {
  it('creates a connection with the defaults: active, provision_new_users, no metadata yet', () => {
    spec.given([]).when(create({})).then([created]);
  });

  it('reads the IdP metadata given at creation', () => {
    spec
      .given([])
      .when(create({ metadata: okta, provider_type: 'okta' }))
      .then([
        {
          type: 'SsoConnectionCreated',
          data: {
            ...identity,
            settings: { ...defaultSettings, metadata: okta, provider_type: 'okta' },
            idp: idpOf(okta),
            sp_key: spKey,
            sp_encryption_key: encryptionKey,
            at,
          },
        },
      ]);
  });

  it('refuses a second connection for the same organization and environment', () => {
    spec.given([created]).when(create({})).thenFails({ kind: 'error', code: 'sso_connection_already_exists' });
  });

  it('refuses bad metadata with a 422 on metadata', () => {
    spec
      .given([created])
      .when(update({ metadata: '<md:EntityDescriptor' }))
      .thenFails({ kind: 'fields', fields: { metadata: [expect.stringMatching(/^is not valid XML/) as unknown as string] } });
  });

  it('updates only the given fields; new metadata replaces the certificates; nothing changed, nothing happens', () => {
    spec
      .given([created])
      .when(update({ users_access_policy: 'only_registered_users', metadata: google }))
      .then([
        {
          type: 'SsoConnectionUpdated',
          data: {
            sp_id: 'acme_sandbox',
            organization_id: 'org-1',
            organization_domain: 'acme',
            environment: 'sandbox',
            settings: { ...defaultSettings, users_access_policy: 'only_registered_users', metadata: google },
            idp: idpOf(google),
            at: later,
          },
        },
      ]);
    spec
      .given([created])
      .when(update({ active: true }))
      .thenNothingHappens();
  });

  describe('a connection created before encrypted assertions were supported', () => {
    const { sp_encryption_key: _none, ...withoutKey } = created.data as typeof created.data & { sp_encryption_key?: unknown };
    const createdBefore: SsoConnectionEvent = { type: 'SsoConnectionCreated', data: withoutKey };
    const newKey = { certificate_pem: 'NEW ENC CERT', encrypted_private_key_pem: 'NEW ENC SEALED' };
    const updateWithKey = (settings: Record<string, unknown>): SsoConnectionCommand => ({
      type: 'UpdateSsoConnection',
      data: { settings, sp_encryption_key: newKey, at: later },
    });
    const keyed = (settings = defaultSettings): SsoConnectionEvent => ({
      type: 'SsoConnectionUpdated',
      data: {
        sp_id: 'acme_sandbox',
        organization_id: 'org-1',
        organization_domain: 'acme',
        environment: 'sandbox',
        settings,
        idp: null,
        sp_encryption_key: newKey,
        at: later,
      },
    });

    it('gets its encryption key at its next update, even one that changes no setting', () => {
      spec.given([createdBefore]).when(updateWithKey({})).then([keyed()]);
      spec
        .given([createdBefore])
        .when(updateWithKey({ active: false }))
        .then([keyed({ ...defaultSettings, active: false })]);
    });

    it('keeps the key it got: later updates neither replace it nor record another', () => {
      expect(
        ssoConnectionDecider.evolve(ssoConnectionDecider.evolve(ssoConnectionDecider.initialState(), createdBefore), keyed()),
      ).toMatchObject({
        sp_encryption_key: newKey,
      });
      spec.given([createdBefore, keyed()]).when(updateWithKey({})).thenNothingHappens();
      spec.given([created]).when(updateWithKey({})).thenNothingHappens();
    });
  });

  it('answers 404 when updating a connection that does not exist', () => {
    spec
      .given([])
      .when(update({ active: false }))
      .thenFails({ kind: 'error', code: 'resource_not_found' });
  });
  describe('when its organization is deleted', () => {
    const deleteCommand = (organizationId: string | null = 'org-1'): SsoConnectionCommand => ({
      type: 'DeleteSsoConnection',
      data: { reason: 'organization_deleted', organization_id: organizationId, at: later },
    });
    const names = { sp_id: 'acme_sandbox', organization_domain: 'acme', environment: 'sandbox' as const };
    const deleted: SsoConnectionEvent = {
      type: 'SsoConnectionDeleted',
      data: { ...names, organization_id: 'org-1', reason: 'organization_deleted', at: later },
    };
    /** As stored before connections named their organization (stream `ssoConnection-acme_sandbox`). */
    const { organization_id: _id, ...legacyData } = created.data as typeof created.data & { organization_id: string };
    const legacy: SsoConnectionEvent = { type: 'SsoConnectionCreated', data: legacyData };

    it('deletes the connection of the deleted organization', () => {
      spec.given([created]).when(deleteCommand()).then([deleted]);
    });

    it('does nothing on a redelivered deletion, or without a connection', () => {
      spec.given([created, deleted]).when(deleteCommand()).then([]);
      spec.given([]).when(deleteCommand()).then([]);
    });

    it('leaves alone the connection of another organization, such as one of the same domain created since (another id), however late', () => {
      spec.given([created]).when(deleteCommand('org-2')).then([]);
      spec.given([created]).when(deleteCommand(null)).then([]);
    });

    it('deletes a connection recorded before connections named their organization with its domain’s organization', () => {
      const deletedLegacy: SsoConnectionEvent = {
        type: 'SsoConnectionDeleted',
        data: { ...names, reason: 'organization_deleted', at: later },
      };
      spec.given([legacy]).when(deleteCommand()).then([deletedLegacy]);
      spec.given([legacy]).when(deleteCommand(null)).then([deletedLegacy]);
    });

    it('names the organization on the envelope of its events (the legacy ones have none to name)', () => {
      const state = [created].reduce(ssoConnectionDecider.evolve, ssoConnectionDecider.initialState());
      expect(ssoConnectionDecider.tenant?.(state)).toEqual({ organization_id: 'org-1', environment: 'sandbox' });
      const legacyState = [legacy].reduce(ssoConnectionDecider.evolve, ssoConnectionDecider.initialState());
      expect(ssoConnectionDecider.tenant?.(legacyState)).toBeUndefined();
    });

    it('lets a new connection of the same name start clean', () => {
      spec.given([created, deleted]).when(create({})).then([created]);
      spec
        .given([created, deleted])
        .when(update({ active: false }))
        .thenFails({ kind: 'error', code: 'resource_not_found' });
    });
  });

  describe('OIDC connections', () => {
    const oidcSettings = {
      ...defaultSettings,
      type: 'oidc' as const,
      oidc_issuer: 'https://idp.example.com',
      oidc_client_id: 'sesame',
      oidc_scopes: ['openid', 'email', 'profile'],
    };
    const createdOidc: SsoConnectionEvent = {
      type: 'SsoConnectionCreated',
      data: {
        ...identity,
        settings: oidcSettings,
        idp: null,
        sp_key: spKey,
        sp_encryption_key: encryptionKey,
        oidc_client_secret: 'SEALED SECRET',
        at,
      },
    };
    const createOidc = (settings: Record<string, unknown>, secret?: string | null): SsoConnectionCommand => ({
      type: 'CreateSsoConnection',
      data: {
        ...identity,
        settings,
        sp_key: spKey,
        sp_encryption_key: encryptionKey,
        ...(secret === undefined ? {} : { oidc_client_secret: secret }),
        at,
      },
    });
    const updateOidc = (settings: Record<string, unknown>, secret?: string | null): SsoConnectionCommand => ({
      type: 'UpdateSsoConnection',
      data: { settings, ...(secret === undefined ? {} : { oidc_client_secret: secret }), at: later },
    });
    const names = {
      sp_id: 'acme_sandbox',
      organization_id: 'org-1',
      organization_domain: 'acme',
      environment: 'sandbox' as const,
    };

    it('creates one with its issuer, client id, the sealed secret apart from the settings, and the default scopes', () => {
      spec
        .given([])
        .when(createOidc({ type: 'oidc', oidc_issuer: 'https://idp.example.com', oidc_client_id: 'sesame' }, 'SEALED SECRET'))
        .then([createdOidc]);
    });

    it('asks for openid whatever scopes are given, once', () => {
      spec
        .given([createdOidc])
        .when(updateOidc({ oidc_scopes: ['groups', 'openid', 'email'] }))
        .then([
          {
            type: 'SsoConnectionUpdated',
            data: { ...names, settings: { ...oidcSettings, oidc_scopes: ['openid', 'groups', 'email'] }, idp: null, at: later },
          },
        ]);
    });

    it('records a new secret even with unchanged settings (a sealed secret differs at each sealing); a null one removes it', () => {
      spec
        .given([createdOidc])
        .when(updateOidc({}, 'NEW SEALED'))
        .then([
          {
            type: 'SsoConnectionUpdated',
            data: { ...names, settings: oidcSettings, idp: null, oidc_client_secret: 'NEW SEALED', at: later },
          },
        ]);
      spec
        .given([createdOidc])
        .when(updateOidc({}, null))
        .then([
          {
            type: 'SsoConnectionUpdated',
            data: { ...names, settings: oidcSettings, idp: null, oidc_client_secret: null, at: later },
          },
        ]);
      spec.given([createdOidc]).when(updateOidc({})).then([]);
    });

    it('keeps the secret across updates that do not name it, and forgets it when removed', () => {
      const updated: SsoConnectionEvent = {
        type: 'SsoConnectionUpdated',
        data: { ...names, settings: { ...oidcSettings, active: false }, idp: null, at: later },
      };
      const removed: SsoConnectionEvent = {
        type: 'SsoConnectionUpdated',
        data: { ...names, settings: oidcSettings, idp: null, oidc_client_secret: null, at: later },
      };
      const state = [createdOidc, updated].reduce(ssoConnectionDecider.evolve, ssoConnectionDecider.initialState());
      expect(state).toMatchObject({ status: 'present', oidc_client_secret: 'SEALED SECRET' });
      expect(ssoConnectionDecider.evolve(state, removed)).toMatchObject({ oidc_client_secret: null });
    });

    it('refuses OIDC fields on a SAML connection and SAML metadata on an OIDC one (422 naming the field)', () => {
      spec
        .given([])
        .when(create({ oidc_issuer: 'https://idp.example.com' }))
        .thenFails({ kind: 'fields', fields: { oidc_issuer: ['is only for OIDC connections (type oidc)'] } });
      spec
        .given([created])
        .when(updateOidc({}, 'SEALED'))
        .thenFails({ kind: 'fields', fields: { oidc_client_secret: ['is only for OIDC connections (type oidc)'] } });
      spec
        .given([createdOidc])
        .when(updateOidc({ metadata: okta }))
        .thenFails({ kind: 'fields', fields: { metadata: ['is only for SAML connections (type saml)'] } });
    });

    it('wants an https issuer in production (http is for local identity providers of the sandbox)', () => {
      const inProduction = (issuer: string): SsoConnectionCommand => ({
        type: 'CreateSsoConnection',
        data: {
          ...identity,
          sp_id: 'acme_production',
          environment: 'production',
          settings: { type: 'oidc', oidc_issuer: issuer },
          sp_key: spKey,
          sp_encryption_key: encryptionKey,
          at,
        },
      });
      spec
        .given([])
        .when(inProduction('http://idp.example.com'))
        .thenFails({ kind: 'fields', fields: { oidc_issuer: ['must be an https URL in production'] } });
      expect(ssoConnectionDecider.decide(inProduction('https://idp.example.com'), { status: 'absent' })).toHaveLength(1);
    });

    it('turns a SAML connection into an OIDC one when asked', () => {
      spec
        .given([created])
        .when(updateOidc({ type: 'oidc', oidc_issuer: 'https://idp.example.com', oidc_client_id: 'sesame' }, 'SEALED SECRET'))
        .then([
          {
            type: 'SsoConnectionUpdated',
            data: { ...names, settings: oidcSettings, idp: null, oidc_client_secret: 'SEALED SECRET', at: later },
          },
        ]);
    });
  });
});
