import * as samlify from 'samlify';
import { installSchemaValidator } from '../../services/auth-methods/src/methods/sso-saml/saml/schema-validator';
import type { TestIdp } from './saml-idp';

/** What a browser sees on a hop: a redirect (Location) or a page. */
export interface Hop {
  status: number;
  location: string | null;
  body: string;
  /** The gateway's correlation id: the operator finds the refusal reason under it in the logs. */
  correlationId: string | null;
}

export async function browserGet(url: string): Promise<Hop> {
  const response = await fetch(url, { redirect: 'manual' });
  return hopOf(response);
}

async function hopOf(response: Response): Promise<Hop> {
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: await response.text(),
    correlationId: response.headers.get('x-correlation-id'),
  };
}

/** The browser posting the IdP's auto-submitted form to the ACS (HTTP-POST binding). */
export async function postToAcs(acsUrl: string, samlResponse: string, relayState?: string): Promise<Hop> {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
  const response = await fetch(acsUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return hopOf(response);
}

/**
 * The IdP receiving our redirect (HTTP-Redirect binding): samlify checks the AuthnRequest
 * signature against our SP metadata and answers the request id and RelayState.
 */
export async function idpReceivesAuthnRequest(idp: TestIdp, location: string, spMetadataXml: string) {
  installSchemaValidator();
  const url = new URL(location);
  const raw = url.search.slice(1).split('&');
  const octetString = raw.filter((part) => !part.startsWith('Signature=')).join('&');
  const query = Object.fromEntries(url.searchParams.entries());
  const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
  const parsed = await idp.entity().parseLoginRequest(sp, 'redirect', { query, octetString });
  return {
    id: (parsed.extract as { request: { id: string } }).request.id,
    relayState: query.RelayState ?? null,
    sigAlg: parsed.sigAlg,
    destination: `${url.origin}${url.pathname}`,
  };
}

/** Our SP as the IdP knows it: from our metadata, wanting signed logout messages. */
export function spEntityOf(spMetadataXml: string) {
  return samlify.ServiceProvider({ metadata: spMetadataXml, wantLogoutRequestSigned: true, wantLogoutResponseSigned: true });
}

/** The query and octet string of an HTTP-Redirect binding URL, for samlify's parsers. */
export function redirectBindingRequest(location: string) {
  const url = new URL(location);
  const octetString = url.search
    .slice(1)
    .split('&')
    .filter((part) => !part.startsWith('Signature='))
    .join('&');
  return { query: Object.fromEntries(url.searchParams.entries()), octetString, destination: `${url.origin}${url.pathname}` };
}
