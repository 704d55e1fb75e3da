import type { SamlFailureReason } from '../saml/response-validator';

/** Every reason a SAML sign-in is refused: the response itself, or what follows from it. */
export type SignInRefusal =
  | SamlFailureReason
  | 'connection_unavailable'
  | 'authn_connection_not_allowed'
  | 'schema_invalid'
  | 'unknown_in_response_to'
  | 'challenge_used'
  | 'challenge_expired'
  | 'idp_initiated_not_allowed'
  | 'no_default_redirect_uri'
  | 'replay'
  | 'no_email'
  | 'user_not_registered'
  | 'user_inactive'
  | 'provisioning_limit_reached'
  | 'user_limit_reached'
  // OpenID Connect connections
  | 'state_mismatch'
  | 'nonce_mismatch'
  | 'idp_error'
  | 'idp_unreachable'
  | 'token_exchange_failed'
  | 'id_token_invalid';

/** What the user reads for each refusal (the operator's log line carries the reason code and detail). */
export const refusalMessages: Record<SignInRefusal, string> = {
  malformed: 'The identity provider sent a response that could not be read.',
  doctype: 'The identity provider response contains a document type declaration, which is not accepted.',
  not_a_response: 'The identity provider did not send a SAML response.',
  status_not_success: 'The identity provider did not authenticate you.',
  encrypted_assertion_unsupported: 'The identity provider encrypted its assertion, which this connection does not support.',
  decryption_failed:
    'The identity provider response could not be decrypted (check the encryption certificate in the identity provider).',
  weak_encryption:
    'The identity provider encrypted its assertion with an algorithm that is no longer accepted (use RSA-OAEP and AES).',
  assertion_count: 'The identity provider response must contain exactly one assertion.',
  signature_wrapping: 'The identity provider response has a malformed signature structure.',
  comment_injection: 'The identity provider response contains XML comments in its assertion, which are not accepted.',
  unsigned: 'The identity provider response is not signed.',
  bad_signature: 'The identity provider response signature is not valid.',
  untrusted_certificate: 'The identity provider response is signed with a certificate this connection does not trust.',
  wrong_issuer: 'The identity provider response comes from another identity provider.',
  wrong_destination: 'The identity provider response was sent to another destination.',
  wrong_audience: 'The identity provider response is meant for another application.',
  wrong_recipient: 'The identity provider response names another recipient.',
  expired: 'The identity provider response has expired.',
  not_yet_valid: 'The identity provider response is not valid yet (check the clocks).',
  missing_name_id: 'The identity provider response does not say who you are.',
  in_response_to_mismatch: 'The identity provider response answers two different requests.',
  in_response_to_unsigned: 'The identity provider response names the sign-in request it answers outside its signature.',
  connection_unavailable: 'Single sign-on is not available for this organization.',
  authn_connection_not_allowed: 'This organization does not allow signing in with single sign-on.',
  schema_invalid: 'The identity provider response does not follow the SAML 2.0 schema.',
  unknown_in_response_to: 'The identity provider response answers a sign-in request we did not make.',
  challenge_used: 'This sign-in request was already used.',
  challenge_expired: 'This sign-in request has expired.',
  idp_initiated_not_allowed: 'Sign-ins started at the identity provider are not allowed for this organization.',
  no_default_redirect_uri: 'The application has no default redirect URI for sign-ins started at the identity provider.',
  replay: 'This identity provider response was already used.',
  no_email: 'The identity provider did not send your email address.',
  user_not_registered: 'Your account is not registered for this application.',
  user_inactive: 'Your account is deactivated.',
  provisioning_limit_reached: 'No more users can be created for this organization.',
  user_limit_reached: "No more users can be created: the plan's limit on the number of users is reached.",
  state_mismatch: 'This sign-in answer does not match a sign-in request of this browser.',
  nonce_mismatch: 'The identity provider’s ID token was issued for another sign-in request.',
  idp_error: 'The identity provider did not sign you in.',
  idp_unreachable: 'The identity provider could not be reached.',
  token_exchange_failed: 'The identity provider refused to complete the sign-in.',
  id_token_invalid: 'The identity provider’s ID token is not valid.',
};

/** A sign-in ended by a refusal: thrown inside the flow, answered as an error page or redirect. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: SignInRefusal,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'SignInRefused';
  }
}
export const refuseSignIn = (reason: SignInRefusal, detail: string = reason): never => {
  throw new SignInRefused(reason, detail);
};
