import { XMLSerializer } from '@xmldom/xmldom';
import { decrypt } from 'xml-encryption';
import { childElements, namespaces, parseUntrustedXml, UnsafeXmlError } from '../xml/safe-xml';
import { checkEnvelopedSignature } from './signature';
import type { SamlFailureReason } from './response-validator';

export type DecryptionResult = { ok: true; xml: string } | { ok: false; reason: SamlFailureReason; detail: string };

const xmlenc = 'http://www.w3.org/2001/04/xmlenc#';
const xmlenc11 = 'http://www.w3.org/2009/xmlenc11#';
/**
 * What we decrypt: RSA-OAEP key transport, AES content encryption. RSA-1_5 (Bleichenbacher) and
 * 3DES are refused. AES-CBC stays accepted because ADFS and Okta encrypt with it by default
 * (xml-encryption 6 calls it insecure: CBC has no integrity); the plaintext assertion must then
 * carry a valid signature, and every failure to decrypt or read the plaintext is the same
 * refusal, so a tampered ciphertext learns nothing (no padding or parsing oracle).
 */
const keyTransports = new Set([`${xmlenc}rsa-oaep-mgf1p`, `${xmlenc11}rsa-oaep`]);
const contentCiphers = new Set([`${xmlenc}aes128-cbc`, `${xmlenc}aes256-cbc`, `${xmlenc11}aes128-gcm`, `${xmlenc11}aes256-gcm`]);

/** The algorithms an EncryptedAssertion names that we do not accept. */
function unacceptedAlgorithms(encrypted: Element): string[] {
  const refused: string[] = [];
  for (const method of Array.from(encrypted.getElementsByTagNameNS(xmlenc, 'EncryptionMethod'))) {
    const algorithm = method.getAttribute('Algorithm') ?? '';
    const parent = method.parentNode as Element;
    const accepted = parent.localName === 'EncryptedKey' ? keyTransports : contentCiphers;
    if (!accepted.has(algorithm)) refused.push(algorithm || 'none');
  }
  return refused;
}

const decryptWith = (encrypted: string, privateKeyPem: string) =>
  new Promise<string>((resolve, reject) =>
    decrypt(
      encrypted,
      // Our own allow-list above decides; the library's would also refuse AES-CBC.
      { key: privateKeyPem, disallowDecryptionWithInsecureAlgorithm: false, warnInsecureAlgorithm: false },
      (error: Error | null, result: string) => (error ? reject(error) : resolve(result)),
    ),
  );

/** The one Assertion of the decrypted content, or null when it is anything else (not XML, two elements...). */
function onlyAssertion(plaintext: string): { assertion: Element | null; nodes: number } {
  const decrypted = parseUntrustedXml(`<decrypted xmlns:saml="${namespaces.saml}">${plaintext}</decrypted>`).documentElement;
  const nodes = Array.from(decrypted.childNodes).filter((node) => node.nodeType !== 3 || (node.textContent ?? '').trim() !== '');
  const first = nodes[0] as Element | undefined;
  const isAssertion = nodes.length === 1 && first?.namespaceURI === namespaces.saml && first.localName === 'Assertion';
  return { assertion: isAssertion ? (first as Element) : null, nodes: nodes.length };
}

/**
 * A Response with an `EncryptedAssertion`, made ready for `validateSamlResponse`: the assertion
 * is decrypted with our SP encryption key (RSA-OAEP key transport and AES; RSA-1_5 and 3DES are
 * refused) and put in place of the `EncryptedAssertion`, so every check of the validator applies
 * to the plaintext assertion, whose own signature is then required. A signature of the Response
 * covers the encrypted form: it is checked here, against the connection's certificates only, and
 * removed. The decrypted content must be exactly one Assertion. A Response without an
 * `EncryptedAssertion` is answered unchanged.
 */
export async function decryptAssertion(
  xml: string,
  keys: { privateKeyPem: string | null; certificates: string[] },
): Promise<DecryptionResult> {
  try {
    const document = parseUntrustedXml(xml);
    const response = document.documentElement;
    const encrypted = Array.from(document.getElementsByTagNameNS(namespaces.saml, 'EncryptedAssertion'));
    if (encrypted.length === 0) return { ok: true, xml };
    if (!keys.privateKeyPem) return refused('encrypted_assertion_unsupported', 'the connection has no SP encryption key');
    if (encrypted.length !== 1 || document.getElementsByTagNameNS(namespaces.saml, 'Assertion').length > 0)
      return refused('assertion_count', 'exactly one assertion, encrypted or not, is expected');
    const element = encrypted[0] as Element;
    if (element.parentNode !== response) return refused('signature_wrapping', 'the encrypted assertion is not a direct child');
    const outer = checkEnvelopedSignature(xml, response, keys.certificates);
    if (outer !== 'absent' && outer !== 'valid') return refused(outerReasons[outer], 'the response signature does not hold');
    const weak = unacceptedAlgorithms(element);
    if (weak.length > 0) return refused('weak_encryption', `not accepted: ${weak.join(', ')}`);
    let content: ReturnType<typeof onlyAssertion>;
    try {
      content = onlyAssertion(await decryptWith(new XMLSerializer().serializeToString(element), keys.privateKeyPem));
    } catch (error) {
      return refused('decryption_failed', (error as Error).message);
    }
    const { assertion } = content;
    if (!assertion)
      return refused('assertion_count', `the encrypted assertion holds ${content.nodes} nodes, exactly one Assertion expected`);
    for (const signature of childElements(response, namespaces.ds, 'Signature')) response.removeChild(signature);
    response.replaceChild(document.importNode(assertion, true), element);
    return { ok: true, xml: new XMLSerializer().serializeToString(document) };
  } catch (error) {
    if (error instanceof UnsafeXmlError) return refused(error.reason === 'doctype' ? 'doctype' : 'malformed', error.message);
    throw error;
  }
}

const outerReasons = {
  invalid: 'bad_signature',
  untrusted_certificate: 'untrusted_certificate',
  wrong_reference: 'signature_wrapping',
} as const;

const refused = (reason: SamlFailureReason, detail: string) => ({ ok: false as const, reason, detail });
