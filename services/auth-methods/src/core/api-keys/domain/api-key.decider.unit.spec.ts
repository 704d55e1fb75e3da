import type { ApiKeyEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { apiKeyDecider } from './api-key.decider';

const data = {
  client_id: '5a1d6f0e-8a6f-4f2e-9c35-4f0b1f8f1a11',
  name: 'ci',
  secret_hash: 'hash',
  environment: 'sandbox' as const,
  scopes: ['organizations:read'],
  at: '2026-01-01T00:00:00.000Z',
};
const created: ApiKeyEvent = { type: 'ApiKeyCreated', data };
const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { client_id: data.client_id, at: '2026-01-02T00:00:00.000Z' } };
const spec = deciderSpecification(apiKeyDecider);

describe('api key decider', () => {
  it('creates a key', () => spec.given([]).when({ type: 'CreateApiKey', data }).then([created]));
  it('refuses a client id already used', () =>
    spec
      .given([created])
      .when({ type: 'CreateApiKey', data })
      .thenFails({ kind: 'fields', fields: { client_id: ['has already been taken'] }, reason: 'taken' }));
  it('refuses a key without scopes', () =>
    spec
      .given([])
      .when({ type: 'CreateApiKey', data: { ...data, scopes: [] } })
      .thenFails({ kind: 'fields', fields: { scopes: ["can't be blank"] } }));
  it('revokes once', () => {
    spec
      .given([created])
      .when({ type: 'RevokeApiKey', data: { at: '2026-01-02T00:00:00.000Z' } })
      .then([revoked]);
    spec
      .given([created, revoked])
      .when({ type: 'RevokeApiKey', data: { at: '2026-01-03T00:00:00.000Z' } })
      .thenNothingHappens();
  });
  it('cannot revoke an unknown key', () =>
    spec
      .given([])
      .when({ type: 'RevokeApiKey', data: { at: '2026-01-02T00:00:00.000Z' } })
      .thenFails({ kind: 'error', code: 'resource_not_found' }));
});
