import * as samlify from 'samlify';
import type { IdpSettingsData } from '@sesame/contracts';
import { postBinding, redirectBinding } from '../metadata/idp-metadata';

/** samlify's view of the connection's identity provider, from what we read in its metadata. */
export function identityProviderOf(idp: IdpSettingsData) {
  return samlify.IdentityProvider({
    entityID: idp.entity_id,
    signingCert: idp.certificates.map((certificate) => certificate.pem),
    wantAuthnRequestsSigned: true,
    // What we send it: samlify signs a message when its target wants it.
    wantLogoutRequestSigned: true,
    wantLogoutResponseSigned: true,
    singleSignOnService: [{ Binding: redirectBinding, Location: idp.sso_url }],
    singleLogoutService: idp.slo_url
      ? [
          { Binding: redirectBinding, Location: idp.slo_url },
          { Binding: postBinding, Location: idp.slo_url },
        ]
      : [],
  });
}
