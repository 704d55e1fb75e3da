import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization } from '../support/identity-fixtures';
import { runScimConformance } from '../support/scim-conformance';

describe("Microsoft's SCIM reference test collection (newman, against the running system)", () => {
  let system: System;
  beforeAll(async () => {
    system = await sharedSystem();
  });

  it('passes every assertion', async () => {
    const domain = await createOrganization(system, 'Conformance Corp');
    const { status, body } = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, {
      body: { provider_type: 'azure_ad' },
    });
    expect(status).toBe(201);
    const result = await runScimConformance({ baseUrl: body.scim_base_url, token: body.auth_secret_token.value });
    expect(result.failures).toEqual([]);
    expect(result.requests).toBe(78);
    expect(result.assertions).toBeGreaterThanOrEqual(100);
  });
});
