import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKeyAndCertificate } from '../crypto/sp-key';
import { metadataProblems, parseIdpMetadata } from './idp-metadata';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', `${name}.xml`), 'utf8');
const now = new Date('2026-06-01T00:00:00Z');
const day = 86_400_000;

const metadataWith = (certificates: string[], sso = true) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example.com">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${certificates.map((pem) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${pem.replace(/-----[A-Z ]+-----/g, '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`).join('')}
    ${sso ? '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>' : ''}
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

describe('IdP metadata', () => {
  it('reads Okta metadata: entity id, redirect SSO URL, its signing certificate', () => {
    const result = parseIdpMetadata(fixture('okta'), now);
    if (!result.ok) throw new Error(result.problem);
    expect(result.idp).toMatchObject({
      entity_id: 'http://www.okta.com/exk1fcia6d6EMsf331d8',
      sso_url: 'https://dev-123456.okta.com/app/dev-123456_sesame_1/exk1fcia6d6EMsf331d8/sso/saml',
      slo_url: null,
    });
    expect(result.idp.certificates).toHaveLength(1);
    expect(result.idp.certificates[0]?.pem).toContain('-----BEGIN CERTIFICATE-----');
  });

  it('reads Entra ID (Azure AD) metadata with two signing certificates, ignoring the WS-Federation role', () => {
    const result = parseIdpMetadata(fixture('azure-ad'), now);
    if (!result.ok) throw new Error(result.problem);
    expect(result.idp.entity_id).toBe('https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/');
    expect(result.idp.sso_url).toBe('https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/saml2');
    expect(result.idp.slo_url).toBe('https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/saml2');
    expect(result.idp.certificates).toHaveLength(2);
  });

  it('reads Google metadata whose certificate spans several lines', () => {
    const result = parseIdpMetadata(fixture('google'), now);
    if (!result.ok) throw new Error(result.problem);
    expect(result.idp.entity_id).toBe('https://accounts.google.com/o/saml2?idpid=C01b2c3d4');
    expect(result.idp.sso_url).toBe('https://accounts.google.com/o/saml2/idp?idpid=C01b2c3d4');
    expect(result.idp.certificates).toHaveLength(1);
  });

  it('reads ADFS metadata: only the signing key of the IDPSSODescriptor, not the encryption key', () => {
    const result = parseIdpMetadata(fixture('adfs'), now);
    if (!result.ok) throw new Error(result.problem);
    expect(result.idp.entity_id).toBe('http://adfs.contoso.com/adfs/services/trust');
    expect(result.idp.sso_url).toBe('https://adfs.contoso.com/adfs/ls/');
    expect(result.idp.slo_url).toBe('https://adfs.contoso.com/adfs/ls/');
    expect(result.idp.certificates).toHaveLength(1);
    expect(readFileSync(join(__dirname, 'fixtures', 'adfs.xml'), 'utf8')).toContain('use="encryption"');
  });

  it('refuses invalid XML, a DOCTYPE, a document that is not IdP metadata', () => {
    expect(parseIdpMetadata('<md:EntityDescriptor', now)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^is not valid XML/),
    });
    expect(parseIdpMetadata('not xml at all', now)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^is not valid XML/),
    });
    expect(
      parseIdpMetadata('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', now),
    ).toEqual({ ok: false, problem: metadataProblems.doctype });
    expect(parseIdpMetadata('<root/>', now)).toEqual({ ok: false, problem: metadataProblems.notSaml });
  });

  it('refuses metadata without a signing certificate, without a redirect SSO URL, with an unreadable certificate', () => {
    expect(parseIdpMetadata(metadataWith([]), now)).toEqual({ ok: false, problem: metadataProblems.noCertificate });
    expect(parseIdpMetadata(metadataWith(['AAAA']), now)).toEqual({ ok: false, problem: metadataProblems.badCertificate });
    expect(parseIdpMetadata(metadataWith([], false), now)).toEqual({ ok: false, problem: metadataProblems.noSsoUrl });
  });

  it('refuses metadata with an expired signing certificate, naming when it expired', async () => {
    const expired = await createKeyAndCertificate('old', {
      notBefore: new Date(now.getTime() - 400 * day),
      notAfter: new Date(now.getTime() - day),
    });
    const valid = await createKeyAndCertificate('new');
    expect(parseIdpMetadata(metadataWith([valid.certificatePem, expired.certificatePem]), now)).toEqual({
      ok: false,
      problem: `has an expired signing certificate (not valid after ${new Date(now.getTime() - day).toISOString().replace(/\.\d+Z$/, '.000Z')})`,
    });
  });
});
