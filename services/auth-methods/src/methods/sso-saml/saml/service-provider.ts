import * as samlify from 'samlify';
import { redirectBinding, postBinding } from '../metadata/idp-metadata';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { samlConfigOf } from '../domain/sp-values';

export const rsaSha256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/**
 * samlify's view of our SP for one connection; `signing` only when it must sign a message, with
 * the id that message gets (AuthnRequest `_<request_id>`: the IdP's InResponseTo names our challenge).
 */
export function serviceProviderOf(
  connection: PresentSsoConnection,
  publicUrl: string,
  signing?: { privateKeyPem: string; messageId: string },
) {
  const config = samlConfigOf(publicUrl, connection.sp_id, null);
  return samlify.ServiceProvider({
    entityID: config.entity_id,
    authnRequestsSigned: true,
    wantAssertionsSigned: true,
    wantLogoutRequestSigned: true,
    wantLogoutResponseSigned: true,
    signingCert: connection.sp_key.certificate_pem,
    // Advertised as <KeyDescriptor use="encryption">: IdPs that encrypt assertions use this certificate.
    ...(connection.sp_encryption_key ? { encryptCert: connection.sp_encryption_key.certificate_pem } : {}),
    ...(signing ? { privateKey: signing.privateKeyPem, generateID: () => signing.messageId } : {}),
    requestSignatureAlgorithm: rsaSha256,
    nameIDFormat: [
      'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    ],
    assertionConsumerService: [{ Binding: postBinding, Location: config.acs_url }],
    singleLogoutService: [
      { Binding: redirectBinding, Location: config.slo_url as string },
      { Binding: postBinding, Location: config.slo_url as string },
    ],
  });
}

/** The AuthnRequest id of a challenge, and back. */
export const authnRequestIdOf = (requestId: string) => `_${requestId}`;
export const requestIdOfAuthnRequest = (id: string) =>
  /^_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(id)?.[1] ?? null;

/** Our SP metadata document (XML) for a connection. */
export const spMetadataXml = (connection: PresentSsoConnection, publicUrl: string): string =>
  serviceProviderOf(connection, publicUrl).getMetadata();
