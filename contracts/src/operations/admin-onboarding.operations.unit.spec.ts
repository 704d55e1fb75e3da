import { fieldErrorsFromZod } from '../common/errors';
import { adminInvitationSsoConnectionBodySchema } from './admin-onboarding.operations';

const errorsOf = (body: unknown) => {
  const parsed = adminInvitationSsoConnectionBodySchema.safeParse(body);
  return parsed.success ? {} : fieldErrorsFromZod(parsed.error);
};

describe('the onboarding page’s SSO connection body', () => {
  it('needs the metadata for SAML (the default), the issuer and client id for OIDC, the secret never', () => {
    expect(errorsOf({ provider_type: 'okta', metadata: '<xml/>' })).toEqual({});
    expect(errorsOf({ provider_type: 'okta' })).toEqual({ metadata: ["can't be blank"] });
    expect(errorsOf({ type: 'saml', provider_type: 'okta', metadata: '  ' })).toEqual({ metadata: ["can't be blank"] });
    expect(
      errorsOf({ type: 'oidc', provider_type: 'okta', oidc_issuer: 'https://idp.example.com', oidc_client_id: 'c' }),
    ).toEqual({});
    expect(errorsOf({ type: 'oidc', provider_type: 'okta', oidc_issuer: '', oidc_client_id: null })).toEqual({
      oidc_issuer: ["can't be blank"],
      oidc_client_id: ["can't be blank"],
    });
  });

  it('names every missing field also when another one is wrong, with the API’s rules for the OIDC fields', () => {
    expect(errorsOf({ provider_type: 'shibboleth' })).toEqual({
      provider_type: [expect.any(String)],
      metadata: ["can't be blank"],
    });
    expect(errorsOf({ type: 'oidc', provider_type: 'okta', oidc_issuer: 'https://idp.example.com/#x' })).toEqual({
      oidc_issuer: ['must not have a query or fragment'],
      oidc_client_id: ["can't be blank"],
    });
    expect(errorsOf('not an object')).toEqual({ base: [expect.any(String)] });
  });
});
