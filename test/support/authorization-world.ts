import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { scopes } from '@sesame/contracts';
import type { Scope } from '@sesame/contracts';
import * as OTPAuth from 'otpauth';
import { repoRoot } from './system';
import type { ApiKey, System } from './system';
import { TestIdp } from './saml-idp';
import { WebhookReceiver } from './webhook-receiver';
import type { LocalDnsServer } from './dns-server';
import { environments, isOrganizationKind, strangerLike } from './authorization-identifiers';
import type {
  Context,
  Environment,
  EnvironmentKind,
  Kind,
  OrganizationKind,
  OrganizationName,
  Owner,
} from './authorization-identifiers';
import { signInEveryone } from './authorization-sign-ins';

/**
 * A value obtained when the request is sent (a code that lives two minutes, a TOTP code of a
 * time step not used yet); `sample` has its shape, for validation and for unknown look-alikes.
 */
export interface Late {
  late: () => Promise<string>;
  sample: string;
}
export const isLate = (value: unknown): value is Late => typeof value === 'object' && value !== null && 'late' in value;

/** A value of the world: a text, a group of fields, a late value, or one computed for the request's context (SAML messages). */
export type WorldValue = string | Record<string, string> | Late | ((anchor: Context) => string | Record<string, string>);
export type Resolved = string | Record<string, string> | Late;

type Values<K extends string> = Partial<Record<K, WorldValue>>;

export const worldPassword = 'Matrix-Quartz-Lantern-8261';
const answerError = (what: string, answer: { status: number; body: unknown }) =>
  new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);

/**
 * What the authorization matrix acts on: in each environment, two organizations `a` and `b`
 * (`b` a relay partner) with a user, an IT admin, an SSO connection to their own identity
 * provider, an onboarding session, a directory sync with a SCIM user and group, password, magic-link and TOTP
 * connections, and the codes and tokens their sign-ins give; per environment, redirect URIs, a
 * webhook with a delivered event, a relay, a user metadata key; API keys: the owner's (every
 * scope), another client's, and one lacking each scope. What could not be built is in `problems`.
 */
export class AuthorizationWorld {
  readonly orgs: Record<Environment, Record<OrganizationName, Values<OrganizationKind>>> = {
    sandbox: { a: {}, b: {} },
    production: { a: {}, b: {} },
  };
  readonly envs: Record<Environment, Values<EnvironmentKind>> = { sandbox: {}, production: {} };
  readonly owners = {} as Record<Environment, ApiKey>;
  readonly others = {} as Record<Environment, ApiKey>;
  /** Keys of the production environment holding every scope but one. */
  readonly lacking = new Map<Scope, ApiKey>();
  readonly idps = new Map<string, TestIdp>();
  /** Our SAML service provider per connection (`env/org`): where its IdP's messages go. */
  readonly sps = new Map<string, { acs_url: string; entity_id: string; metadata: string }>();
  readonly problems: string[] = [];
  /** How long each step of the build took (ms), for the log. */
  readonly timings = new Map<string, number>();
  stranger!: TestIdp;
  receiver!: WebhookReceiver;

  constructor(
    readonly system: System,
    private readonly dns: LocalDnsServer,
  ) {}

  /** `dns` is the DNS server the identity service reads TXT records from (`SESAME_DNS_SERVERS`). */
  static async build(system: System, dns: LocalDnsServer): Promise<AuthorizationWorld> {
    const world = new AuthorizationWorld(system, dns);
    world.receiver = await WebhookReceiver.start();
    world.stranger = await TestIdp.create();
    for (const env of environments)
      for (const org of ['a', 'b'] as const) world.idps.set(`${env}/${org}`, await TestIdp.create());
    await world.step('API keys', () => world.createKeys());
    const lacking = world.step('API keys lacking a scope', () => world.createLackingKeys());
    await Promise.all(environments.map((env) => world.buildEnvironment(env)));
    await Promise.all(environments.map((env) => signInEveryone(world, env)));
    await lacking;
    return world;
  }

  /** The value of `kind` owned by `owner`, for a request about `anchor`. */
  resolve(kind: Kind, owner: Owner, anchor: Context): Resolved | undefined {
    const value =
      isOrganizationKind(kind) && owner.org
        ? this.orgs[owner.env][owner.org][kind]
        : this.envs[owner.env][kind as EnvironmentKind];
    if (typeof value !== 'function') return value;
    try {
      return value(anchor);
    } catch {
      return undefined;
    }
  }

  /** What a tenant would send if the value did not exist (a message of an unknown IdP for SAML). */
  strangerOf(kind: Kind, value: Resolved, anchor: Context): Resolved {
    const forged = this.orgs[anchor.env][anchor.org][`stranger:${kind}` as OrganizationKind];
    if (typeof forged === 'function') return forged(anchor);
    if (isLate(value)) return strangerLike(value.sample);
    if (typeof value === 'string') return strangerLike(value);
    return Object.fromEntries(Object.entries(value).map(([name, text]) => [name, strangerLike(text)]));
  }

  setOrg(env: Environment, org: OrganizationName, kind: OrganizationKind | `stranger:${Kind}`, value: WorldValue): void {
    (this.orgs[env][org] as Record<string, WorldValue>)[kind] = value;
  }

  /** Runs one step of the build; a failure is recorded (operations needing its values then fail the guard) and answers undefined. */
  async step<T>(what: string, task: () => Promise<T>): Promise<T | undefined> {
    const started = Date.now();
    try {
      return await task();
    } catch (error) {
      this.problems.push(`${what}: ${(error as Error).message}`);
      return undefined;
    } finally {
      this.timings.set(what, Date.now() - started);
    }
  }

  /** A request of the environment's owner; a 503 (a service slow to answer on a loaded machine) is tried again. */
  async call(method: string, path: string, env: Environment, body?: unknown, expected = [200, 201]): Promise<any> {
    for (let attempt = 1; ; attempt++) {
      const answer = await this.system.request(method, path, { key: this.owners[env], ...(body === undefined ? {} : { body }) });
      if (expected.includes(answer.status)) return answer.body;
      if (answer.status !== 503 || attempt === 3) throw answerError(`${method} ${path}`, answer);
    }
  }

  /** The links of the newest email to `to` in the local outbox. */
  async mailLink(to: string, rel: string): Promise<URL> {
    const { body } = await this.system.request('GET', `/dev/outbox?to=${encodeURIComponent(to)}`, { token: null });
    const mail = (body.data as { links: { rel: string; url: string }[] }[]).at(-1);
    const link = mail?.links.find((candidate) => candidate.rel === rel);
    if (!link) throw new Error(`no ${rel} email to ${to}`);
    return new URL(link.url);
  }

  domainOf(env: Environment, org: OrganizationName): string {
    return this.orgs[env][org].organization as string;
  }

  /** The owners' and the other clients' keys, which the build needs. */
  private async createKeys(): Promise<void> {
    const made = await mapLimit(
      environments.flatMap((env) => [env, env]),
      4,
      (env) => createApiKey(this.system, env, [...scopes]),
    );
    environments.forEach((env, index) => {
      this.owners[env] = made[2 * index] as ApiKey;
      this.others[env] = made[2 * index + 1] as ApiKey;
      const client = (key: ApiKey) => ({ client_id: key.clientId, client_secret: key.clientSecret });
      this.envs[env].apiKey = this.owners[env].clientId;
      this.envs[env].client = client(this.owners[env]);
      this.envs[env].otherClient = client(this.others[env]);
      this.envs[env].onboardingPage = `${this.system.baseUrl}/onboarding/admin-invitation`;
    });
    await Promise.all(environments.map((env) => this.system.token(this.owners[env])));
  }

  /** Production keys holding every scope but one, one per scope (made while the rest of the world is built). */
  private async createLackingKeys(): Promise<void> {
    const keys = await mapLimit([...scopes], 4, (scope) =>
      createApiKey(
        this.system,
        'production',
        scopes.filter((kept) => kept !== scope),
      ),
    );
    scopes.forEach((scope, index) => this.lacking.set(scope, keys[index] as ApiKey));
  }

  private async buildEnvironment(env: Environment): Promise<void> {
    const values = this.envs[env];
    await this.step(`${env}: redirect URIs`, async () => {
      const first = await this.call('POST', '/api/v2/redirect_uris', env, { url: `https://app-${env}.matrix.example/callback` });
      const second = await this.call('POST', '/api/v2/redirect_uris', env, { url: `https://app-${env}.matrix.example/second` });
      values.redirectUri = first.url;
      values.redirectUriId = second.id;
    });
    await this.step(`${env}: webhook and a delivered event`, async () => {
      const code = 'user_metakey.deleted';
      const target = `${this.receiver.url}/${env}`;
      values.webhook = (
        await this.call('POST', '/api/v2/webhooks', env, { name: 'Matrix', event_codes: [code], target_url: target })
      ).id;
      const jobs = await this.call('POST', '/api/v2/webhook-events/trigger-test', env, { event_code: code });
      values.webhookEvent = String(jobs.data[0].id);
    });
    await this.step(`${env}: user metadata key`, async () => {
      values.metakey = (await this.call('POST', '/api/v2/tokens/user-metakeys', env, { name: `matrix_${env}` })).name;
    });
    for (const org of ['a', 'b'] as const)
      await this.step(`${env}/${org}: organization`, async () => {
        const allowed = org === 'a' ? [`a-${env}.matrix.example`] : [];
        const created = await this.call('POST', '/api/v2/organizations', env, {
          name: `Matrix ${org.toUpperCase()} ${env}`,
          allowed_email_domains: allowed,
        });
        this.setOrg(env, org, 'organization', created.domain);
        this.setOrg(env, org, 'emailDomain', allowed[0] ?? `${org}-${env}.matrix.example`);
      });
    // `a` verifies its domain (a sign-in by email routes only to a verified domain in production).
    await this.step(`${env}/a: verified email domain`, async () => {
      const [domain, emailDomain] = [this.domainOf(env, 'a'), this.orgs[env].a.emailDomain as string];
      const started = await this.call('POST', `/api/v2/organizations/${domain}/domains/${emailDomain}/verification`, env);
      this.dns.publishTxt(started.record.name, started.record.value);
      await this.call('POST', `/api/v2/organizations/${domain}/domains/${emailDomain}/verify`, env);
    });
    for (const org of ['a', 'b'] as const) this.setOrg(env, org, 'partnerOrganization', this.domainOf(env, 'b'));
    await Promise.all((['a', 'b'] as const).map((org) => this.buildOrganization(env, org)));
    await this.step(`${env}: relay to b`, async () => {
      values.relay = (
        await this.call('POST', '/api/v2/relays', env, {
          partner_domain: this.domainOf(env, 'b'),
          source_organizations: [this.domainOf(env, 'a')],
          partner_redirect_uri: `https://partner-${env}.matrix.example/callback`,
          jit: true,
        })
      ).id;
    });
  }

  private async buildOrganization(env: Environment, org: OrganizationName): Promise<void> {
    const domain = this.domainOf(env, org);
    if (!domain) return;
    const base = `/api/v2/org/${domain}`;
    const email = `${org === 'a' ? 'ada' : 'bob'}@${org}-${env}.matrix.example`;
    await this.step(`${env}/${org}: user and password`, async () => {
      this.setOrg(env, org, 'user', (await this.call('POST', `${base}/users`, env, { email })).id);
      this.setOrg(env, org, 'userEmail', email);
      this.setOrg(env, org, 'password', worldPassword);
      await this.call('POST', `${base}/password-connection`, env, {});
      await this.call('POST', '/api/v2/password', env, { org_domain: domain, user_email: email, plain_text: worldPassword });
      await this.call('POST', `${base}/magic-link-connection`, env, {});
    });
    await this.step(`${env}/${org}: TOTP enrollment`, () => this.enrollTotp(env, org, base));
    await this.step(`${env}/${org}: IT admin invitation`, async () => {
      const admin = `it@${org}-${env}.matrix.example`;
      await this.call('POST', `${base}/admins`, env, { email: admin });
      this.setOrg(env, org, 'admin', admin);
      this.setOrg(env, org, 'invitation', (await this.mailLink(admin, 'admin-invitation')).searchParams.get('token') as string);
    });
    // Another admin's session, so that the vendor's calls on `admin` (revoke, delete) leave it open.
    await this.step(`${env}/${org}: onboarding session`, async () => {
      const admin = `onboarding@${org}-${env}.matrix.example`;
      await this.call('POST', `${base}/admins`, env, { email: admin, allowed_setups: ['sso', 'directory_sync', 'domains'] });
      const token = (await this.mailLink(admin, 'admin-invitation')).searchParams.get('token') as string;
      const opened = await this.system.request('POST', '/api/v2/admin-invitations/open', { token: null, body: { token } });
      const session = /^sesame_onboarding=([^;]+)/.exec(opened.headers.getSetCookie().join('\n'))?.[1];
      if (opened.status !== 200 || !session) throw answerError('POST /api/v2/admin-invitations/open', opened);
      this.setOrg(env, org, 'onboardingSession', session);
    });
    await this.step(`${env}/${org}: SSO connection`, async () => {
      const idp = this.idps.get(`${env}/${org}`) as TestIdp;
      const settings = { provider_type: 'custom_saml', metadata: idp.metadata(), allow_idp_initiated: true };
      const created = await this.call('POST', `${base}/sso-connection`, env, settings, [201, 409]);
      // A first attempt that timed out may have created it: then it answers 409, and the settings are set again.
      const connection = created.sp_id ? created : await this.call('PUT', `${base}/sso-connection`, env, settings);
      this.setOrg(env, org, 'connection', connection.sp_id);
      this.setOrg(env, org, 'idpMetadata', idp.metadata());
    });
    await this.step(`${env}/${org}: directory sync and SCIM resources`, () => this.buildDirectory(env, org, base, email));
  }

  private async enrollTotp(env: Environment, org: OrganizationName, base: string): Promise<void> {
    const user = this.orgs[env][org].user as string;
    await this.call('PUT', `${base}/totp-connection`, env, { active: true });
    const enrollment = await this.call('POST', `${base}/totp-enrollment/${user}`, env, {});
    const totp = OTPAuth.URI.parse(enrollment.uri) as OTPAuth.TOTP;
    // The previous step's code (one step of drift is accepted): the matrix's own validation, with the
    // code of the step it runs in, then never meets a step already used, however fast the world is built.
    const previousStep = totp.generate({ timestamp: Date.now() - totp.period * 1_000 });
    await this.call('PUT', `${base}/totp-enrollment/validation/${user}?code=${previousStep}`, env);
    this.setOrg(env, org, 'totpEnrollmentCode', totpCode(totp, 0));
    this.setOrg(env, org, 'totpChallengeCode', totpCode(totp, 1));
  }

  private async buildDirectory(env: Environment, org: OrganizationName, base: string, email: string): Promise<void> {
    const directory = await this.call('POST', `${base}/directory-sync`, env, {});
    this.setOrg(env, org, 'directory', directory.id);
    this.setOrg(env, org, 'scimToken', directory.auth_secret_token.value);
    const scim = async (path: string, body: unknown) => {
      const answer = await this.system.request('POST', `/scim/v2/${directory.id}${path}`, {
        token: directory.auth_secret_token.value,
        body,
        headers: { 'content-type': 'application/scim+json' },
      });
      if (answer.status !== 201) throw answerError(`SCIM POST ${path}`, answer);
      return answer.body.id as string;
    };
    const userName = `scim.${email}`;
    this.setOrg(env, org, 'scimUser', await scim('/Users', scimUserBody(userName)));
    this.setOrg(env, org, 'scimGroup', await scim('/Groups', scimGroupBody(`Matrix ${org} ${env}`)));
  }
}

export const scimUserBody = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  active: true,
  emails: [{ value: userName, type: 'work', primary: true }],
});
export const scimGroupBody = (displayName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  displayName,
});

/**
 * The TOTP code of a time step, computed when sent: Sesame accepts each step once and one step of
 * drift, so the challenge's code is the next step's (never the step an enrollment validation just used).
 */
const totpCode = (totp: OTPAuth.TOTP, stepsAhead: number): Late => ({
  sample: '123456',
  late: async () => totp.generate({ timestamp: Date.now() + stepsAhead * totp.period * 1_000 }),
});

/** `sesame api-keys create`, as `System.createApiKey` runs it, but without blocking: keys are made a few at a time. */
function createApiKey(system: System, environment: Environment, granted: Scope[]): Promise<ApiKey> {
  const cli = join(repoRoot, 'services/auth-methods/dist/cli/sesame.js');
  const args = [cli, 'api-keys', 'create', '--environment', environment, '--json', '--scopes', granted.join(',')];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: system.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`sesame api-keys create failed: ${err}`));
      const key = JSON.parse(out) as { client_id: string; client_secret: string; scopes: string[] };
      resolve({ clientId: key.client_id, clientSecret: key.client_secret, environment, scopes: key.scopes });
    });
  });
}

/** `task` over `items`, at most `limit` at a time, answers in order. */
export async function mapLimit<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
