import type { AuthorizationWorld } from './authorization-world';
import type { Context, Environment, OrganizationName } from './authorization-identifiers';
import { spEntityOf, postToAcs } from './saml-browser';
import type { SpEndpoints, TestIdp } from './saml-idp';

interface Sp extends SpEndpoints {
  metadata: string;
}

/**
 * The sign-ins of everyone in an environment, and what they leave: a SAML session, pending SAML
 * challenge, logout and test sign-in, an unused authorization code, access and refresh tokens, a
 * relay code, a password reset code; and the SAML messages each organization's identity provider
 * (or an unknown one, for the "as if it did not exist" answers) sends to any connection.
 */
export async function signInEveryone(world: AuthorizationWorld, env: Environment): Promise<void> {
  for (const org of ['a', 'b'] as const) {
    const sp = await world.step(`${env}/${org}: SP metadata`, () => spOf(world, env, org));
    if (sp) world.sps.set(`${env}/${org}`, sp);
  }
  const spOfAnchor = (anchor: Context) => {
    const sp = world.sps.get(`${anchor.env}/${anchor.org}`);
    if (!sp) throw new Error(`no SP for ${anchor.env}/${anchor.org}`);
    return sp;
  };
  for (const org of ['a', 'b'] as const) {
    const idp = world.idps.get(`${env}/${org}`) as TestIdp;
    samlMessages(world, env, org, idp, world.orgs[env][org].userEmail as string, spOfAnchor);
    samlMessages(world, env, org, world.stranger, `nobody@${org}-${env}.matrix.example`, spOfAnchor, 'stranger:');
  }
  await Promise.all((['a', 'b'] as const).map((org) => signIn(world, env, org, world.sps.get(`${env}/${org}`))));
}

async function spOf(world: AuthorizationWorld, env: Environment, org: OrganizationName): Promise<Sp> {
  const connection = await world.call('GET', `/api/v2/org/${world.domainOf(env, org)}/sso-connection`, env);
  const metadata = await fetch(connection.saml_config.cryptr_metadata_url).then((response) => response.text());
  return { acs_url: connection.saml_config.acs_url, entity_id: connection.saml_config.entity_id, metadata };
}

type Kinds = '' | 'stranger:';

/** The login response and logout requests `idp` signs for `email`, addressed to the connection the request is about. */
function samlMessages(
  world: AuthorizationWorld,
  env: Environment,
  org: OrganizationName,
  idp: TestIdp,
  email: string,
  spOfAnchor: (anchor: Context) => Sp,
  prefix: Kinds = '',
): void {
  world.setOrg(env, org, `${prefix}samlLoginResponse` as never, (anchor) =>
    idp.loginResponse(spOfAnchor(anchor), { nameId: email }),
  );
  world.setOrg(env, org, `${prefix}samlLogoutRequest` as never, (anchor) => {
    const sp = spEntityOf(spOfAnchor(anchor).metadata);
    const { context } = idp.entity().createLogoutRequest(sp, 'redirect', { logoutNameID: email }) as { context: string };
    const query = new URL(context).searchParams;
    return Object.fromEntries(['SAMLRequest', 'SigAlg', 'Signature'].map((name) => [name, query.get(name) ?? '']));
  });
  world.setOrg(env, org, `${prefix}samlLogoutRequestPost` as never, (anchor) => {
    const sp = spEntityOf(spOfAnchor(anchor).metadata);
    return (idp.entity().createLogoutRequest(sp, 'post', { logoutNameID: email }) as { context: string }).context;
  });
}

async function signIn(world: AuthorizationWorld, env: Environment, org: OrganizationName, sp: Sp | undefined): Promise<void> {
  const values = world.orgs[env][org];
  const [domain, email] = [values.organization as string, values.userEmail as string];
  const redirectUri = world.envs[env].redirectUri as string;
  const where = `${env}/${org}`;
  await world.step(`${where}: SAML sign-in (IdP-initiated) and single logout started`, async () => {
    const idp = world.idps.get(where) as TestIdp;
    const hop = await postToAcs((sp as Sp).acs_url, idp.loginResponse(sp as Sp, { nameId: email }));
    if (hop.status !== 302 || !hop.location?.includes('code=')) throw new Error(`ACS answered ${hop.status} ${hop.location}`);
    const logout = await world.call('POST', '/api/v2/sso-saml-logout', env, {
      org_domain: domain,
      user_email: email,
      redirect_uri: redirectUri,
    });
    world.setOrg(env, org, 'samlLogout', logout.request_id);
  });
  await world.step(`${where}: SAML challenge`, async () => {
    const challenge = await world.call('POST', '/api/v2/sso-saml-challenge', env, {
      org_domain: domain,
      redirect_uri: redirectUri,
    });
    world.setOrg(env, org, 'samlChallenge', challenge.request_id);
  });
  await world.step(`${where}: test sign-in of the onboarding page`, async () => {
    const answer = await world.system.request('POST', '/api/v2/admin-invitations/sso/test', {
      token: null,
      body: { return_url: world.envs[env].onboardingPage },
      headers: { cookie: `sesame_onboarding=${values.onboardingSession as string}` },
    });
    if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
    world.setOrg(env, org, 'testSignIn', answer.body.request_id);
  });
  await world.step(`${where}: magic-link codes, tokens, relay code`, () => magicLinkSignIns(world, env, org));
  await world.step(`${where}: password reset code`, async () => {
    await world.call('POST', '/api/v2/password-request', env, {
      org_domain: domain,
      user_email: email,
      redirect_uri: redirectUri,
    });
    world.setOrg(
      env,
      org,
      'passwordCode',
      (await world.mailLink(email, 'password-reset')).searchParams.get('password_code') as string,
    );
  });
}

/**
 * A magic link exchanged for tokens (the access token asks for relay codes); authorization codes
 * and relay codes live minutes, so each request that names one gets a fresh one (`Late`).
 */
async function magicLinkSignIns(world: AuthorizationWorld, env: Environment, org: OrganizationName): Promise<void> {
  const values = world.orgs[env][org];
  const code = async () => {
    await world.call('POST', '/api/v2/magic-link-challenge', env, {
      email: values.userEmail,
      org_domain: values.organization,
      redirect_uri: world.envs[env].redirectUri,
    });
    return (await world.mailLink(values.userEmail as string, 'magic-link')).searchParams.get('code') as string;
  };
  const key = world.owners[env];
  const tokens = await world.system.request('POST', '/oauth/token', {
    token: null,
    body: { grant_type: 'authorization_code', code: await code(), client_id: key.clientId, client_secret: key.clientSecret },
  });
  if (tokens.status !== 200) throw new Error(`token exchange: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  world.setOrg(env, org, 'authorizationCode', { late: code, sample: await code() });
  world.setOrg(env, org, 'userAccessToken', tokens.body.access_token);
  world.setOrg(env, org, 'refreshToken', tokens.body.refresh_token);
  const relayCode = async () => {
    const relayed = await world.call('POST', `/api/v2/relays/${world.envs[env].relay}/request`, env, {
      access_token: tokens.body.access_token,
    });
    return new URL(relayed.relay_uri).searchParams.get('code') as string;
  };
  // The relay (to b) accepts users of a: a user of b is not relayed into its own organization.
  if (org === 'a') world.setOrg(env, org, 'relayCode', { late: relayCode, sample: await relayCode() });
}
