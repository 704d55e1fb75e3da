import { childElements, namespaces, parseUntrustedXml, textOf, UnsafeXmlError } from '../xml/safe-xml';
import { checkEnvelopedSignature } from './signature';

/** Why a SAML response was refused: logged for the operator, summarised for the user. */
export const samlFailureReasons = [
  'malformed',
  'doctype',
  'not_a_response',
  'status_not_success',
  'encrypted_assertion_unsupported',
  'decryption_failed',
  'weak_encryption',
  'assertion_count',
  'signature_wrapping',
  'comment_injection',
  'unsigned',
  'bad_signature',
  'untrusted_certificate',
  'wrong_issuer',
  'wrong_destination',
  'wrong_audience',
  'wrong_recipient',
  'expired',
  'not_yet_valid',
  'missing_name_id',
  'in_response_to_mismatch',
  'in_response_to_unsigned',
] as const;
export type SamlFailureReason = (typeof samlFailureReasons)[number];

export interface ResponseExpectations {
  idpEntityId: string;
  /** The connection's IdP signing certificates (PEM): any of them may sign. */
  certificates: string[];
  spEntityId: string;
  acsUrl: string;
  now: Date;
  /** Allowed clock difference with the IdP. */
  skewMs: number;
}

export interface ValidatedAssertion {
  response_id: string;
  assertion_id: string;
  issuer: string;
  in_response_to: string | null;
  name_id: string;
  name_id_format: string | null;
  session_index: string | null;
  attributes: Record<string, string[]>;
  /** Until when the assertion may be used: the assertion id is remembered until then. */
  not_on_or_after: string;
}

export type ValidationResult =
  { ok: true; assertion: ValidatedAssertion } | { ok: false; reason: SamlFailureReason; detail: string };

class Refusal extends Error {
  constructor(
    readonly reason: SamlFailureReason,
    detail: string,
  ) {
    super(detail);
  }
}
const refuse = (reason: SamlFailureReason, detail: string): never => {
  throw new Refusal(reason, detail);
};

/**
 * Validates a SAML 2.0 Response to our ACS (DESIGN.md section 6), without trusting any library
 * alone: no DTD, one Response with exactly one plain Assertion as its direct child, every ID
 * unique, no comment inside the assertion, signatures checked against the connection's
 * certificates only (an unsigned or badly signed Response or Assertion is refused even when the
 * other one holds), Issuer, Destination, Audience, Recipient, time bounds with a small skew.
 * InResponseTo is answered for the caller to match against its pending challenge, only as far as
 * a signature covers it (`signedInResponseTo`).
 */
export function validateSamlResponse(xml: string, expected: ResponseExpectations): ValidationResult {
  try {
    return { ok: true, assertion: validate(xml, expected) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.reason, detail: error.message };
    if (error instanceof UnsafeXmlError)
      return { ok: false, reason: error.reason === 'doctype' ? 'doctype' : 'malformed', detail: error.message };
    throw error;
  }
}

function validate(xml: string, expected: ResponseExpectations): ValidatedAssertion {
  const document = parseUntrustedXml(xml);
  const response = document.documentElement;
  if (response.namespaceURI !== namespaces.samlp || response.localName !== 'Response')
    refuse('not_a_response', `root element is ${response.localName}`);
  checkUniqueIds(document);
  const status = response.getElementsByTagNameNS(namespaces.samlp, 'StatusCode')[0]?.getAttribute('Value');
  if (status !== 'urn:oasis:names:tc:SAML:2.0:status:Success') refuse('status_not_success', `status ${status ?? 'missing'}`);
  if (document.getElementsByTagNameNS(namespaces.saml, 'EncryptedAssertion').length > 0)
    refuse('encrypted_assertion_unsupported', 'encrypted assertions are not supported');
  const assertions = document.getElementsByTagNameNS(namespaces.saml, 'Assertion');
  if (assertions.length !== 1) refuse('assertion_count', `${assertions.length} assertions, exactly one expected`);
  const assertion = assertions[0] as Element;
  if (assertion.parentNode !== response) refuse('signature_wrapping', 'the assertion is not a direct child of the response');
  if (containsComment(assertion)) refuse('comment_injection', 'the assertion contains an XML comment');

  const { responseSigned } = checkSignatures(xml, response, assertion, expected.certificates);
  checkIssuers(response, assertion, expected.idpEntityId);
  const destination = response.getAttribute('Destination');
  if (destination !== expected.acsUrl) refuse('wrong_destination', `Destination ${destination || 'missing'}`);
  const notOnOrAfter = checkConditions(assertion, expected);
  const subject = checkSubject(assertion, expected);
  const inResponseTo = signedInResponseTo({
    response: response.getAttribute('InResponseTo') || null,
    responseSigned,
    subjectConfirmation: subject.inResponseTo,
  });
  const authn = childElements(assertion, namespaces.saml, 'AuthnStatement')[0];
  return {
    response_id: response.getAttribute('ID') as string,
    assertion_id: assertion.getAttribute('ID') as string,
    issuer: expected.idpEntityId,
    in_response_to: inResponseTo,
    name_id: subject.nameId,
    name_id_format: subject.nameIdFormat,
    session_index: authn?.getAttribute('SessionIndex') || null,
    attributes: attributesOf(assertion),
    not_on_or_after: notOnOrAfter,
  };
}

function checkUniqueIds(document: Document): void {
  const seen = new Set<string>();
  const elements = document.getElementsByTagName('*');
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as Element;
    for (const name of ['ID', 'Id', 'id']) {
      const value = element.getAttribute(name);
      if (!value) continue;
      if (seen.has(value)) refuse('signature_wrapping', `two elements share the id ${value}`);
      seen.add(value);
    }
  }
}

function containsComment(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling)
    if (child.nodeType === 8 || (child.nodeType === 1 && containsComment(child))) return true;
  return false;
}

/** Refuses unless every signature present holds (and one at least is); answers whether the Response itself is signed. */
function checkSignatures(
  xml: string,
  response: Element,
  assertion: Element,
  certificates: string[],
): { responseSigned: boolean } {
  const results = [checkEnvelopedSignature(xml, response, certificates), checkEnvelopedSignature(xml, assertion, certificates)];
  if (results.every((result) => result === 'absent')) refuse('unsigned', 'neither the response nor the assertion is signed');
  if (results.includes('wrong_reference')) refuse('signature_wrapping', 'a signature does not reference its own element');
  if (results.includes('untrusted_certificate'))
    refuse('untrusted_certificate', 'signed with a key whose certificate is not in the connection metadata');
  if (results.includes('invalid')) refuse('bad_signature', 'a signature does not verify with the connection certificates');
  return { responseSigned: results[0] === 'valid' };
}

/**
 * The request a response answers, counted only where a signature covers it: the bearer
 * SubjectConfirmationData's InResponseTo (inside the assertion, so signed with it or with the
 * Response around it), or the Response's own attribute when the Response is signed. Anything
 * else would let whoever holds an unsolicited signed assertion add an InResponseTo on an
 * unsigned Response and pass it off as the answer to a pending SP-initiated sign-in (login CSRF,
 * past `allow_idp_initiated: false`). Two values must agree.
 */
export function signedInResponseTo(values: {
  response: string | null;
  responseSigned: boolean;
  subjectConfirmation: string | null;
}): string | null {
  const { response, responseSigned, subjectConfirmation } = values;
  if (response && subjectConfirmation && response !== subjectConfirmation)
    refuse('in_response_to_mismatch', 'InResponseTo differs between the response and its subject confirmation');
  if (response && !responseSigned && !subjectConfirmation)
    refuse('in_response_to_unsigned', `the unsigned Response names InResponseTo ${response}, the signed assertion none`);
  return subjectConfirmation ?? (responseSigned ? response : null);
}

function checkIssuers(response: Element, assertion: Element, idpEntityId: string): void {
  const responseIssuer = childElements(response, namespaces.saml, 'Issuer')[0];
  if (responseIssuer && textOf(responseIssuer) !== idpEntityId)
    refuse('wrong_issuer', `Response Issuer ${textOf(responseIssuer)}`);
  const assertionIssuer = childElements(assertion, namespaces.saml, 'Issuer')[0];
  if (!assertionIssuer || textOf(assertionIssuer) !== idpEntityId)
    refuse('wrong_issuer', `Assertion Issuer ${assertionIssuer ? textOf(assertionIssuer) : 'missing'}`);
}

function checkTimes(element: Element, expected: ResponseExpectations, where: string): string | null {
  const now = expected.now.getTime();
  const notBefore = element.getAttribute('NotBefore');
  if (notBefore && !(Date.parse(notBefore) - expected.skewMs <= now)) refuse('not_yet_valid', `${where} NotBefore ${notBefore}`);
  const notOnOrAfter = element.getAttribute('NotOnOrAfter');
  if (notOnOrAfter && !(now < Date.parse(notOnOrAfter) + expected.skewMs))
    refuse('expired', `${where} NotOnOrAfter ${notOnOrAfter}`);
  return notOnOrAfter || null;
}

function checkConditions(assertion: Element, expected: ResponseExpectations): string {
  const conditions = childElements(assertion, namespaces.saml, 'Conditions')[0];
  if (!conditions) return refuse('wrong_audience', 'no Conditions with an Audience');
  const notOnOrAfter = checkTimes(conditions, expected, 'Conditions');
  const restrictions = childElements(conditions, namespaces.saml, 'AudienceRestriction');
  if (restrictions.length === 0) refuse('wrong_audience', 'no AudienceRestriction');
  for (const restriction of restrictions) {
    const audiences = childElements(restriction, namespaces.saml, 'Audience').map(textOf);
    if (!audiences.includes(expected.spEntityId)) refuse('wrong_audience', `Audience ${audiences.join(', ') || 'missing'}`);
  }
  return notOnOrAfter ?? new Date(expected.now.getTime() + 5 * 60_000).toISOString();
}

function checkSubject(assertion: Element, expected: ResponseExpectations) {
  const subject = childElements(assertion, namespaces.saml, 'Subject')[0];
  const nameId = subject && childElements(subject, namespaces.saml, 'NameID')[0];
  if (!subject || !nameId || textOf(nameId) === '') return refuse('missing_name_id', 'the assertion has no NameID');
  const bearer = childElements(subject, namespaces.saml, 'SubjectConfirmation').find(
    (confirmation) => confirmation.getAttribute('Method') === 'urn:oasis:names:tc:SAML:2.0:cm:bearer',
  );
  const data = bearer && childElements(bearer, namespaces.saml, 'SubjectConfirmationData')[0];
  if (!data) return refuse('wrong_recipient', 'no bearer SubjectConfirmationData');
  if (data.getAttribute('Recipient') !== expected.acsUrl)
    refuse('wrong_recipient', `Recipient ${data.getAttribute('Recipient') || 'missing'}`);
  if (!data.getAttribute('NotOnOrAfter')) refuse('expired', 'the subject confirmation has no NotOnOrAfter');
  checkTimes(data, expected, 'SubjectConfirmationData');
  return {
    nameId: textOf(nameId),
    nameIdFormat: nameId.getAttribute('Format') || null,
    inResponseTo: data.getAttribute('InResponseTo') || null,
  };
}

function attributesOf(assertion: Element): Record<string, string[]> {
  const attributes: Record<string, string[]> = {};
  for (const statement of childElements(assertion, namespaces.saml, 'AttributeStatement'))
    for (const attribute of childElements(statement, namespaces.saml, 'Attribute')) {
      const name = attribute.getAttribute('Name');
      if (!name) continue;
      attributes[name] = [
        ...(attributes[name] ?? []),
        ...childElements(attribute, namespaces.saml, 'AttributeValue').map(textOf),
      ];
    }
  return attributes;
}
