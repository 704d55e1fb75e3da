import { existsSync } from 'node:fs';
import { TestIdp } from '../../../../../../test/support/saml-idp';
import { SchemaValidationError, validateSamlSchema, validateWithWasm, validateWithXmllint } from './schema-validator';

const sp = { entity_id: 'https://sesame.test/metadata', acs_url: 'https://sesame.test/acs' };

describe('SAML schema validation (offline)', () => {
  let valid: string;
  let invalid: string;
  beforeAll(async () => {
    const idp = await TestIdp.create();
    valid = idp.signedResponseXml(sp, { nameId: 'ada@acme.com', attributes: { email: 'ada@acme.com' } });
    invalid = valid.replace('<samlp:Status>', '<samlp:Unexpected/><samlp:Status>');
  });

  it('accepts a SAML 2.0 response and refuses one that breaks the schema', async () => {
    await expect(validateSamlSchema(valid)).resolves.toBe(true);
    await expect(validateSamlSchema(invalid)).rejects.toThrow(SchemaValidationError);
  });

  it('gives the same answers with the WebAssembly build of xmllint', async () => {
    await expect(validateWithWasm(valid)).resolves.toBe(true);
    await expect(validateWithWasm(invalid)).rejects.toThrow(/Unexpected/);
  });

  const debian = existsSync('/usr/bin/xmllint') ? it : it.skip;
  debian('gives the same answers with Debian xmllint (libxml2-utils)', async () => {
    await expect(validateWithXmllint('/usr/bin/xmllint', valid)).resolves.toBe(true);
    await expect(validateWithXmllint('/usr/bin/xmllint', invalid)).rejects.toThrow(/Unexpected/);
  });
});
