// A real OpenID Connect provider (oidc-provider), run as its own process by the OIDC system tests.
// Its login and consent pages are oidc-provider's own development interactions (forms the test
// posts as a browser would); any login name is an account whose email is `<login>@<EMAIL_DOMAIN>`.
// Configuration from the environment: PORT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, EMAIL_DOMAIN.
// Prints `ready <issuer>` once it listens on 127.0.0.1.
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const { PORT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, EMAIL_DOMAIN } = process.env;
const issuer = `http://127.0.0.1:${PORT}`;
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: 'provider-key', use: 'sig', alg: 'RS256' };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: REDIRECT_URI.split(' '),
      response_types: ['code'],
      grant_types: ['authorization_code'],
      id_token_signed_response_alg: 'RS256',
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: ['oidc-provider-test-cookie-key'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
  async findAccount(_ctx, login) {
    const [given, family = 'Tester'] = login.split('.');
    return {
      accountId: login,
      async claims() {
        return {
          sub: login,
          email: `${login}@${EMAIL_DOMAIN}`,
          email_verified: true,
          given_name: given.charAt(0).toUpperCase() + given.slice(1),
          family_name: family.charAt(0).toUpperCase() + family.slice(1),
        };
      },
    };
  },
  pkce: { methods: ['S256'], required: () => true },
  features: { devInteractions: { enabled: true } },
  ttl: { AuthorizationCode: 60, IdToken: 300, AccessToken: 300, Interaction: 600, Session: 600, Grant: 600 },
});
provider.on('server_error', (_ctx, error) => console.error('server_error', error));

createServer(provider.callback()).listen(Number(PORT), '127.0.0.1', () => console.log(`ready ${issuer}`));
