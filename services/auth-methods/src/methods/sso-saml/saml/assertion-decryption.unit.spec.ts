import { createKeyAndCertificate } from '../crypto/sp-key';
import type { KeyAndCertificate } from '../crypto/sp-key';
import { encryptAssertion, TestIdp } from '../../../../../../test/support/saml-idp';
import { decryptAssertion } from './assertion-decryption';
import { validateSamlResponse } from './response-validator';

const sp = {
  entity_id: 'https://sesame.test/sso/saml/acme_sandbox/metadata',
  acs_url: 'https://sesame.test/sso/saml/acme_sandbox/acs',
};

describe('encrypted assertions', () => {
  let idp: TestIdp;
  let spEncryption: KeyAndCertificate;
  let otherSp: KeyAndCertificate;
  beforeAll(async () => {
    [idp, spEncryption, otherSp] = await Promise.all([
      TestIdp.create('https://idp.example.com/saml'),
      createKeyAndCertificate('sp encryption'),
      createKeyAndCertificate('another sp'),
    ]);
  });
  const keys = () => ({ privateKeyPem: spEncryption.privateKeyPem, certificates: [idp.key.certificatePem] });
  const signed = (sign: 'assertion' | 'response' | 'both' | 'none' = 'assertion') =>
    idp.signedResponseXml(sp, { nameId: 'ada@acme.com', inResponseTo: '_req1', attributes: { email: 'ada@acme.com' }, sign });
  /** Decrypts, then validates as the ACS does. */
  const accept = async (xml: string) => {
    const decrypted = await decryptAssertion(xml, keys());
    if (!decrypted.ok) return decrypted;
    return validateSamlResponse(decrypted.xml, {
      idpEntityId: idp.entityId,
      certificates: [idp.key.certificatePem],
      spEntityId: sp.entity_id,
      acsUrl: sp.acs_url,
      now: new Date(),
      skewMs: 120_000,
    });
  };

  it('decrypts an assertion encrypted for our SP (RSA-OAEP, AES-CBC or AES-GCM), then validates its signature', async () => {
    for (const encryption of ['aes256-cbc', 'aes256-gcm'] as const)
      expect(await accept(await encryptAssertion(signed(), spEncryption.certificatePem, { encryption }))).toMatchObject({
        ok: true,
        assertion: { name_id: 'ada@acme.com', in_response_to: '_req1', attributes: { email: ['ada@acme.com'] } },
      });
  });

  it('checks a response signature made over the encrypted assertion, and still wants the assertion signed', async () => {
    const both = await encryptAssertion(signed('assertion'), spEncryption.certificatePem);
    expect(await accept(idp.signWith(both, 'response'))).toMatchObject({ ok: true });
    const tampered = idp.signWith(both, 'response').replace('<saml:Issuer>', '<saml:Issuer> ');
    expect(await accept(tampered)).toMatchObject({ ok: false, reason: 'bad_signature' });
    const onlyOuter = idp.signWith(await encryptAssertion(signed('none'), spEncryption.certificatePem), 'response');
    expect(await accept(onlyOuter)).toMatchObject({ ok: false, reason: 'unsigned' });
  });

  it('refuses an assertion encrypted with another key, or an unsigned one', async () => {
    expect(await accept(await encryptAssertion(signed(), otherSp.certificatePem))).toMatchObject({
      ok: false,
      reason: 'decryption_failed',
    });
    expect(await accept(await encryptAssertion(signed('none'), spEncryption.certificatePem))).toMatchObject({
      ok: false,
      reason: 'unsigned',
    });
  });

  it('refuses RSA-1_5 key transport', async () => {
    const weak = await encryptAssertion(signed(), spEncryption.certificatePem, { keyEncryption: 'rsa-1_5' });
    expect(await accept(weak)).toMatchObject({
      ok: false,
      reason: 'weak_encryption',
      detail: expect.stringContaining('rsa-1_5'),
    });
  });

  it('refuses decrypted content holding two assertions, or an encrypted assertion next to a plain one', async () => {
    const xml = signed();
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] as string;
    const two = await encryptAssertion(xml, spEncryption.certificatePem, {
      content: assertion + assertion.replace(/ID="[^"]+"/, 'ID="_second"'),
    });
    expect(await accept(two)).toMatchObject({ ok: false, reason: 'assertion_count' });
    const encrypted = await encryptAssertion(xml, spEncryption.certificatePem);
    const mixed = encrypted.replace('</samlp:Status>', `</samlp:Status>${assertion.replace(/ID="[^"]+"/, 'ID="_plain"')}`);
    expect(await accept(mixed)).toMatchObject({ ok: false, reason: 'assertion_count' });
  });

  it('refuses an encrypted assertion when the connection has no encryption key, and leaves plain responses as they are', async () => {
    const encrypted = await encryptAssertion(signed(), spEncryption.certificatePem);
    expect(await decryptAssertion(encrypted, { privateKeyPem: null, certificates: [] })).toMatchObject({
      ok: false,
      reason: 'encrypted_assertion_unsupported',
    });
    const plain = signed();
    expect(await decryptAssertion(plain, keys())).toEqual({ ok: true, xml: plain });
  });
});
