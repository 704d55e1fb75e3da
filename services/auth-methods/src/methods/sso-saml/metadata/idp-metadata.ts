import { X509Certificate } from 'node:crypto';
import { childElements, descendantElements, namespaces, parseUntrustedXml, textOf, UnsafeXmlError } from '../xml/safe-xml';

export const redirectBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const postBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

export interface IdpCertificate {
  pem: string;
  fingerprint_sha256: string;
  not_before: string;
  not_after: string;
}

/** What an identity provider's metadata tells us: who it is, where to send users, which keys sign. */
export interface IdpSettings {
  entity_id: string;
  sso_url: string;
  slo_url: string | null;
  certificates: IdpCertificate[];
}

export type MetadataResult = { ok: true; idp: IdpSettings } | { ok: false; problem: string };

export const metadataProblems = {
  doctype: 'must not contain a DOCTYPE',
  notSaml: 'is not SAML metadata: no EntityDescriptor with an IDPSSODescriptor',
  noEntityId: 'has no entityID',
  noSsoUrl: 'has no SingleSignOnService with the HTTP-Redirect binding',
  noCertificate: 'has no signing certificate',
  badCertificate: 'has a signing certificate that cannot be read',
} as const;

const problem = (text: string): MetadataResult => ({ ok: false, problem: text });

/**
 * Reads IdP metadata (Okta, Entra ID, Google, ADFS and other SAML 2.0 providers): the entity id,
 * the HTTP-Redirect SSO and SLO locations, and the signing certificates of the IDPSSODescriptor
 * (`use="signing"` or no `use`; encryption keys and other roles are ignored). Metadata with an
 * expired signing certificate is refused: the admin must remove it or publish the new one.
 */
export function parseIdpMetadata(xml: string, now: Date): MetadataResult {
  let document: Document;
  try {
    document = parseUntrustedXml(xml);
  } catch (error) {
    if (!(error instanceof UnsafeXmlError)) throw error;
    return problem(error.reason === 'doctype' ? metadataProblems.doctype : `is not valid XML (${error.message})`);
  }
  const entity = idpEntity(document);
  if (!entity) return problem(metadataProblems.notSaml);
  const entityId = entity.entity.getAttribute('entityID')?.trim();
  if (!entityId) return problem(metadataProblems.noEntityId);
  const ssoUrl = serviceLocation(entity.idp, 'SingleSignOnService');
  if (!ssoUrl) return problem(metadataProblems.noSsoUrl);
  const certificates = signingCertificates(entity.idp);
  if (certificates === null) return problem(metadataProblems.badCertificate);
  if (certificates.length === 0) return problem(metadataProblems.noCertificate);
  const expired = certificates.find((certificate) => Date.parse(certificate.not_after) <= now.getTime());
  if (expired) return problem(`has an expired signing certificate (not valid after ${expired.not_after})`);
  return {
    ok: true,
    idp: { entity_id: entityId, sso_url: ssoUrl, slo_url: serviceLocation(entity.idp, 'SingleLogoutService'), certificates },
  };
}

function idpEntity(document: Document): { entity: Element; idp: Element } | null {
  const root = document.documentElement;
  const entities =
    root.namespaceURI === namespaces.md && root.localName === 'EntityDescriptor'
      ? [root]
      : root.namespaceURI === namespaces.md && root.localName === 'EntitiesDescriptor'
        ? childElements(root, namespaces.md, 'EntityDescriptor')
        : [];
  const withIdp = entities
    .map((entity) => ({ entity, idp: childElements(entity, namespaces.md, 'IDPSSODescriptor')[0] }))
    .filter((item): item is { entity: Element; idp: Element } => item.idp !== undefined);
  return withIdp.length === 1 ? (withIdp[0] as { entity: Element; idp: Element }) : null;
}

function serviceLocation(idp: Element, service: 'SingleSignOnService' | 'SingleLogoutService'): string | null {
  const endpoint = childElements(idp, namespaces.md, service).find((item) => item.getAttribute('Binding') === redirectBinding);
  const location = endpoint?.getAttribute('Location')?.trim();
  return location && /^https?:\/\//.test(location) ? location : null;
}

/** The signing certificates, deduplicated; null when one of them is not a readable X.509 certificate. */
function signingCertificates(idp: Element): IdpCertificate[] | null {
  const found = new Map<string, IdpCertificate>();
  for (const descriptor of childElements(idp, namespaces.md, 'KeyDescriptor')) {
    const use = descriptor.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const element of descendantElements(descriptor, namespaces.ds, 'X509Certificate')) {
      const certificate = readCertificate(textOf(element));
      if (!certificate) return null;
      found.set(certificate.fingerprint_sha256, certificate);
    }
  }
  return [...found.values()];
}

export function readCertificate(base64: string): IdpCertificate | null {
  const body = base64.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  try {
    const certificate = new X509Certificate(Buffer.from(body, 'base64'));
    return {
      pem: certificate.toString(),
      fingerprint_sha256: certificate.fingerprint256,
      not_before: new Date(certificate.validFrom).toISOString(),
      not_after: new Date(certificate.validTo).toISOString(),
    };
  } catch {
    return null;
  }
}
