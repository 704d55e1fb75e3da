import { inflateRawSync } from 'node:zlib';
import type { KeyRing } from '@sesame/platform';
import type { PresentSsoConnection } from '../domain/sso-connection.decider';
import { identityProviderOf } from '../saml/identity-provider';
import { serviceProviderOf } from '../saml/service-provider';
import { parseUntrustedXml, UnsafeXmlError } from '../xml/safe-xml';
import type { Binding, SamlMessage } from './single-logout.deps';

/** Our service provider and the connection's identity provider, as samlify entities. */
export const entitiesOf = (
  deps: { keyRing: KeyRing; publicUrl: string },
  connection: PresentSsoConnection,
  messageId?: string,
) => ({
  sp: serviceProviderOf(connection, deps.publicUrl, {
    privateKeyPem: deps.keyRing.open(connection.sp_key.encrypted_private_key_pem),
    messageId: messageId ?? `_${crypto.randomUUID()}`,
  }),
  idp: identityProviderOf(connection.idp as NonNullable<PresentSsoConnection['idp']>),
});

/** Our DTD rule first (samlify's parser must never see a DOCTYPE), then samlify's parse and signature check. */
export async function parseLogoutMessage(
  deps: { keyRing: KeyRing; publicUrl: string },
  kind: 'request' | 'response',
  connection: PresentSsoConnection,
  binding: Binding,
  message: SamlMessage,
  rawQuery?: string,
) {
  const encoded = (kind === 'request' ? message.SAMLRequest : message.SAMLResponse) as string;
  const raw = Buffer.from(encoded, 'base64');
  parseUntrustedXml((binding === 'redirect' ? inflateRawSync(raw) : raw).toString('utf8'));
  const { sp, idp } = entitiesOf(deps, connection);
  const request = binding === 'redirect' ? { query: message, octetString: octetStringOf(rawQuery ?? '') } : { body: message };
  const parsed =
    kind === 'request' ? await sp.parseLogoutRequest(idp, binding, request) : await sp.parseLogoutResponse(idp, binding, request);
  const extract = parsed.extract as {
    issuer?: string;
    request?: { id?: string };
    response?: { inResponseTo?: string };
    nameID?: string;
    sessionIndex?: string;
  };
  if (extract.issuer !== connection.idp?.entity_id) throw new Error(`Issuer ${extract.issuer ?? 'missing'}`);
  return { parsed, extract };
}

export type ParsedLogoutMessage = Awaited<ReturnType<typeof parseLogoutMessage>>;

/** The signed part of an HTTP-Redirect binding query, in the order and encoding received. */
function octetStringOf(rawQuery: string): string {
  return rawQuery
    .split('&')
    .filter((part) => /^(SAMLRequest|SAMLResponse|RelayState|SigAlg)=/.test(part))
    .join('&');
}

/** The reason logged for a logout message refused while parsing. */
export function refusalOf(error: unknown): string {
  if (error instanceof UnsafeXmlError) return error.reason === 'doctype' ? 'doctype' : 'malformed';
  const message = error instanceof Error ? error.message : String(error);
  if (/SIGNATURE|signature/.test(message)) return 'bad_signature';
  if (/^Issuer/.test(message)) return 'wrong_issuer';
  return 'invalid_logout_message';
}
