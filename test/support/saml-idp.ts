import { randomUUID } from 'node:crypto';
import * as samlify from 'samlify';
import { SignedXml } from 'xml-crypto';
import { encrypt } from 'xml-encryption';
import { createKeyAndCertificate } from '../../services/auth-methods/src/methods/sso-saml/crypto/sp-key';
import type { KeyAndCertificate } from '../../services/auth-methods/src/methods/sso-saml/crypto/sp-key';

const redirect = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const post = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What the SP expects, as it publishes it. */
export interface SpEndpoints {
  entity_id: string;
  acs_url: string;
}

export interface LoginResponseOptions {
  nameId: string;
  inResponseTo?: string;
  attributes?: Record<string, string | string[]>;
  sessionIndex?: string;
  /** Overrides of the template values (Destination, Audience, SubjectRecipient, Issuer, times...). */
  tags?: Record<string, string>;
  /** Which elements the IdP signs (default: the assertion, as most IdPs do). */
  sign?: 'assertion' | 'response' | 'both' | 'none';
}

/**
 * A real SAML identity provider for tests: samlify's IdentityProvider with its own RSA key and
 * self-signed certificate, publishing metadata and signing login responses the way Okta or
 * Entra ID do (HTTP-POST binding). `signWith` lets attack tests sign tampered XML.
 */
export class TestIdp {
  private constructor(
    readonly entityId: string,
    readonly key: KeyAndCertificate,
    readonly ssoUrl: string,
  ) {}

  static async create(entityId = `https://idp-${randomUUID().slice(0, 8)}.example.com/saml`): Promise<TestIdp> {
    return new TestIdp(entityId, await createKeyAndCertificate('test idp'), `${entityId}/sso`);
  }

  entity() {
    return samlify.IdentityProvider({
      entityID: this.entityId,
      signingCert: this.key.certificatePem,
      privateKey: this.key.privateKeyPem,
      wantAuthnRequestsSigned: true,
      requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      singleSignOnService: [
        { Binding: redirect, Location: this.ssoUrl },
        { Binding: post, Location: this.ssoUrl },
      ],
      singleLogoutService: [{ Binding: redirect, Location: `${this.entityId}/slo` }],
    });
  }

  metadata(): string {
    return this.entity().getMetadata();
  }

  /** The unsigned Response XML, from samlify's login response template. */
  responseXml(sp: SpEndpoints, options: LoginResponseOptions): string {
    const now = new Date();
    const inFive = new Date(now.getTime() + 5 * 60_000).toISOString();
    const attributes = Object.entries(options.attributes ?? {})
      .map(
        ([name, values]) =>
          `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${[values]
            .flat()
            .map((value) => `<saml:AttributeValue xsi:type="xs:string">${escape(value)}</saml:AttributeValue>`)
            .join('')}</saml:Attribute>`,
      )
      .join('');
    const authn = `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${escape(options.sessionIndex ?? `_session_${randomUUID()}`)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
    const template = samlify.SamlLib.defaultLoginResponseTemplate.context
      .replace('{AuthnStatement}', authn)
      .replace('{AttributeStatement}', attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '');
    return samlify.SamlLib.replaceTagsByValue(template, {
      ID: `_${randomUUID()}`,
      AssertionID: `_${randomUUID()}`,
      Destination: sp.acs_url,
      Audience: sp.entity_id,
      SubjectRecipient: sp.acs_url,
      Issuer: this.entityId,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: inFive,
      SubjectConfirmationDataNotOnOrAfter: inFive,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: options.nameId,
      InResponseTo: options.inResponseTo ?? null,
      ...options.tags,
    } as Record<string, string>);
  }

  /** A signed login response, base64 as the HTTP-POST binding sends it, signed by samlify. */
  loginResponse(sp: SpEndpoints, options: LoginResponseOptions): string {
    return Buffer.from(this.signedResponseXml(sp, options)).toString('base64');
  }

  signedResponseXml(sp: SpEndpoints, options: LoginResponseOptions): string {
    let xml = this.responseXml(sp, options);
    const sign = options.sign ?? 'assertion';
    if (sign === 'assertion' || sign === 'both') xml = this.signWith(xml, 'assertion');
    if (sign === 'response' || sign === 'both') xml = this.signWith(xml, 'response');
    return xml;
  }

  /** Signs the assertion or the response with this IdP's key (samlify's signer), KeyInfo carrying its certificate. */
  signWith(xml: string, what: 'assertion' | 'response', key: KeyAndCertificate = this.key): string {
    const config = {
      privateKey: key.privateKeyPem,
      signingCert: key.certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''),
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      rawSamlMessage: xml,
      isBase64Output: false,
    };
    if (what === 'assertion')
      return samlify.SamlLib.constructSAMLSignature({
        ...config,
        referenceTagXPath: "/*[local-name(.)='Response']/*[local-name(.)='Assertion']",
        signatureConfig: {
          prefix: 'ds',
          location: {
            reference: "/*[local-name(.)='Response']/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
            action: 'after',
          },
        },
      } as never);
    return samlify.SamlLib.constructSAMLSignature({
      ...config,
      isMessageSigned: true,
      signatureConfig: {
        prefix: 'ds',
        location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: 'after' },
      },
    } as never);
  }
}

export interface EncryptionOptions {
  /** Key transport: RSA-OAEP by default (as Entra ID, ADFS and Okta do); RSA-1_5 for the weak-algorithm case. */
  keyEncryption?: 'rsa-oaep-mgf1p' | 'rsa-1_5';
  /** Content encryption: AES-256-CBC by default (ADFS, Okta), or AES-256-GCM. */
  encryption?: 'aes256-cbc' | 'aes256-gcm';
}

/**
 * Encrypts what stands between the Assertion tags of `xml` (by default the signed assertion) for
 * the SP certificate (`<KeyDescriptor use="encryption">` of its metadata), as an IdP with
 * assertion encryption on sends it: `<saml:EncryptedAssertion>` holding the EncryptedData with the
 * EncryptedKey in its KeyInfo. `content` replaces what is encrypted (attack cases).
 */
export async function encryptAssertion(
  xml: string,
  spEncryptionCertificatePem: string,
  options: EncryptionOptions & { content?: string } = {},
): Promise<string> {
  const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0];
  if (!assertion) throw new Error('no assertion to encrypt');
  const xmlenc = 'http://www.w3.org/2001/04/xmlenc#';
  const gcm = options.encryption === 'aes256-gcm';
  const encrypted = await new Promise<string>((resolve, reject) =>
    encrypt(
      options.content ?? assertion,
      {
        rsa_pub: spEncryptionCertificatePem,
        pem: spEncryptionCertificatePem,
        encryptionAlgorithm: gcm ? 'http://www.w3.org/2009/xmlenc11#aes256-gcm' : `${xmlenc}aes256-cbc`,
        keyEncryptionAlgorithm: `${xmlenc}${options.keyEncryption ?? 'rsa-oaep-mgf1p'}`,
        disallowEncryptionWithInsecureAlgorithm: false,
        warnInsecureAlgorithm: false,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  return xml.replace(assertion, `<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`);
}

/** Raw xml-crypto verification of the assertion signature (the benchmark's baseline). */
export function verifyAssertionSignature(xml: string, certificatePem: string): boolean {
  const signature = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(xml)?.[0];
  if (!signature) return false;
  const signed = new SignedXml({ publicCert: certificatePem, getCertFromKeyInfo: () => null });
  signed.loadSignature(signature);
  return signed.checkSignature(xml);
}
