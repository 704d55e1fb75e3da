import { SignedXml } from 'xml-crypto';
import { childElements, namespaces } from '../xml/safe-xml';

export type SignatureCheck = 'absent' | 'valid' | 'invalid' | 'untrusted_certificate' | 'wrong_reference';

const allowedTransforms = new Set([
  'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
]);

/**
 * Checks the enveloped signature of `element` (its direct `ds:Signature` child) against the
 * connection's certificates only: the certificate a message carries in KeyInfo is never used
 * (a signature made with a key whose certificate is not in the metadata is `untrusted_certificate`).
 * The signature must have exactly one Reference, to `element` itself, with only the enveloped
 * and exclusive canonicalization transforms.
 */
export function checkEnvelopedSignature(xml: string, element: Element, certificates: string[]): SignatureCheck {
  const signatures = childElements(element, namespaces.ds, 'Signature');
  if (signatures.length === 0) return 'absent';
  if (signatures.length > 1) return 'wrong_reference';
  const signature = signatures[0] as Element;
  const id = element.getAttribute('ID');
  for (const certificate of certificates) {
    const signed = new SignedXml({ publicCert: certificate, getCertFromKeyInfo: () => null });
    signed.loadSignature(signature);
    const references = signed.getReferences();
    if (references.length !== 1 || !id || references[0]?.uri !== `#${id}`) return 'wrong_reference';
    if (!(references[0]?.transforms ?? []).every((transform) => allowedTransforms.has(transform))) return 'wrong_reference';
    try {
      if (signed.checkSignature(xml)) return 'valid';
    } catch {
      /* not this certificate, or a malformed signature: try the next certificate */
    }
  }
  return keyInfoCertificates(signature).some((carried) => !certificates.some((known) => sameCertificate(known, carried)))
    ? 'untrusted_certificate'
    : 'invalid';
}

const bare = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
const sameCertificate = (a: string, b: string) => bare(a) === bare(b);

function keyInfoCertificates(signature: Element): string[] {
  return Array.from(signature.getElementsByTagNameNS(namespaces.ds, 'X509Certificate')).map((node) => node.textContent ?? '');
}
