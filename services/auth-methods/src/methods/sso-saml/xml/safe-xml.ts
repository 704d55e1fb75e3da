import { DOMParser } from '@xmldom/xmldom';

export const namespaces = {
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export class UnsafeXmlError extends Error {
  constructor(
    readonly reason: 'doctype' | 'invalid_xml',
    detail: string,
  ) {
    super(detail);
    this.name = 'UnsafeXmlError';
  }
}

/**
 * Parses XML we did not write (IdP metadata, SAML messages). DTDs are refused before parsing:
 * no DOCTYPE, no entity declarations, hence no external entities and no entity expansion.
 * Parser warnings and errors are failures, not silently repaired documents.
 */
export function parseUntrustedXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) throw new UnsafeXmlError('doctype', 'a DOCTYPE is not allowed');
  const fail = (message: string) => {
    throw new UnsafeXmlError('invalid_xml', message.replace(/\s+/g, ' ').trim().slice(0, 200));
  };
  const document = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(
    xml,
    'text/xml',
  );
  if (!document?.documentElement) fail('no root element');
  return document;
}

/** The element children of `parent` with this namespace and local name. */
export function childElements(parent: Node, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling)
    if (node.nodeType === 1 && (node as Element).namespaceURI === namespace && (node as Element).localName === localName)
      found.push(node as Element);
  return found;
}

/** Every descendant element with this namespace and local name. */
export function descendantElements(root: Document | Element, namespace: string, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(namespace, localName));
}

/** Text content of an element, with every comment and processing instruction refused by the caller. */
export const textOf = (element: Element) => (element.textContent ?? '').trim();
