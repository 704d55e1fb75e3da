// A hand-made OpenID Connect provider for the OIDC system tests' token-level attacks: it answers
// discovery, its JWKS and the authorization and token endpoints (code flow, PKCE S256 checked, the
// client's secret checked), and signs each ID token as `POST /mode` last asked:
//   valid, other_key (signed by a key not in its JWKS), alg_none (unsigned), other_issuer (`iss` of
//   another provider), mixup_iss_param (the authorization response names another issuer), expired,
//   wrong_nonce, other_audience.
// Configuration from the environment: PORT, CLIENT_ID, CLIENT_SECRET, EMAIL. Prints `ready <issuer>`.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';

const { PORT, CLIENT_ID, CLIENT_SECRET, EMAIL } = process.env;
const issuer = `http://127.0.0.1:${PORT}`;
const key = await generateKeyPair('RS256');
const otherKey = await generateKeyPair('RS256');
const publicJwk = { ...(await exportJWK(key.publicKey)), kid: 'forger-key', use: 'sig', alg: 'RS256' };
const codes = new Map();
let mode = 'valid';

const json = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};
const bodyOf = (req) =>
  new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(new URLSearchParams(text)));
  });
const base64url = (buffer) => buffer.toString('base64url');

async function idTokenFor(grant) {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    email: EMAIL,
    email_verified: true,
    given_name: 'Grace',
    family_name: 'Hopper',
    nonce: mode === 'wrong_nonce' ? base64url(randomBytes(16)) : grant.nonce,
  };
  const token = (signer) =>
    signer
      .setSubject('forger-subject-1')
      .setIssuer(mode === 'other_issuer' ? 'https://login.other-idp.example' : issuer)
      .setAudience(mode === 'other_audience' ? 'another-client' : CLIENT_ID)
      .setIssuedAt(mode === 'expired' ? now - 7_200 : now)
      .setExpirationTime(mode === 'expired' ? now - 3_600 : now + 300);
  if (mode === 'alg_none') return token(new UnsecuredJWT(claims)).encode();
  const signing = mode === 'other_key' ? otherKey.privateKey : key.privateKey;
  return token(new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'forger-key' })).sign(signing);
}

createServer(async (req, res) => {
  const url = new URL(req.url, issuer);
  if (url.pathname === '/.well-known/openid-configuration')
    return json(res, 200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    });
  if (url.pathname === '/jwks') return json(res, 200, { keys: [publicJwk] });
  if (url.pathname === '/mode' && req.method === 'POST') {
    mode = (await bodyOf(req)).get('mode');
    return json(res, 200, { mode });
  }
  if (url.pathname === '/authorize') {
    const params = url.searchParams;
    if (params.get('client_id') !== CLIENT_ID || params.get('code_challenge_method') !== 'S256')
      return json(res, 400, { error: 'invalid_request' });
    const code = base64url(randomBytes(24));
    codes.set(code, {
      nonce: params.get('nonce'),
      codeChallenge: params.get('code_challenge'),
      redirectUri: params.get('redirect_uri'),
    });
    const back = new URL(params.get('redirect_uri'));
    back.searchParams.set('code', code);
    back.searchParams.set('state', params.get('state'));
    if (mode === 'mixup_iss_param') back.searchParams.set('iss', 'https://login.other-idp.example');
    res.writeHead(302, { location: back.toString() });
    return res.end();
  }
  if (url.pathname === '/token' && req.method === 'POST') {
    const form = await bodyOf(req);
    const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':')
      .map(decodeURIComponent);
    if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return json(res, 401, { error: 'invalid_client' });
    const grant = codes.get(form.get('code'));
    codes.delete(form.get('code'));
    const verifier = form.get('code_verifier') ?? '';
    if (
      !grant ||
      grant.redirectUri !== form.get('redirect_uri') ||
      base64url(createHash('sha256').update(verifier).digest()) !== grant.codeChallenge
    )
      return json(res, 400, { error: 'invalid_grant', error_description: 'unknown code, redirect URI or PKCE verifier' });
    return json(res, 200, {
      access_token: base64url(randomBytes(24)),
      token_type: 'Bearer',
      expires_in: 300,
      id_token: await idTokenFor(grant),
    });
  }
  json(res, 404, { error: 'not_found' });
}).listen(Number(PORT), '127.0.0.1', () => console.log(`ready ${issuer}`));
