import { TestIdp } from '../../../../../../test/support/saml-idp';
import type { ResponseExpectations } from './response-validator';

/** Our SP as the validation tests address it. */
export const testSp = {
  entity_id: 'https://sesame.test/sso/saml/acme_sandbox/metadata',
  acs_url: 'https://sesame.test/sso/saml/acme_sandbox/acs',
};

/** A samlify IdP with its own key, and what our SP expects of its responses. */
export async function validationKit(): Promise<{ idp: TestIdp; expected: ResponseExpectations }> {
  const idp = await TestIdp.create('https://idp.example.com/saml');
  const expected = {
    idpEntityId: idp.entityId,
    certificates: [idp.key.certificatePem],
    spEntityId: testSp.entity_id,
    acsUrl: testSp.acs_url,
    now: new Date(),
    skewMs: 120_000,
  };
  return { idp, expected };
}
