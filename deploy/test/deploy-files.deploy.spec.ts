/**
 * The plain deployment files: the Dockerfile (hadolint-style rules we care about), the compose file,
 * the chart's values (schema, documentation, references from the templates) and yamllint.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { natsRoles } from '../../services/platform/src/messaging/nats-connection';
import {
  natsAuthorization,
  natsPasswordVariable,
  sesameNatsUsers,
} from '../../services/platform/src/messaging/nats-server-config';
import { defaultHttpPorts, defaultManagementPort } from '../../services/platform/src/runtime/ports';
import { processEntries } from '../../test/support/system';
import { ciValues, chartDir, renderText, repoRoot } from './support/chart';
import { parseDockerfile } from './support/dockerfile';

/** Helm's merge of a values file over the defaults: maps merge, everything else replaces. */
function deepMerge(base: any, override: any): any {
  if (
    !base ||
    !override ||
    typeof base !== 'object' ||
    typeof override !== 'object' ||
    Array.isArray(base) ||
    Array.isArray(override)
  )
    return override;
  const merged = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = deepMerge(base[key], value);
  return merged;
}

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const processes = Object.keys(processEntries) as (keyof typeof processEntries)[];
const secretLike = /(SECRET|PASSWORD|TOKEN|ENCRYPTION_KEYS|PRIVATE_KEY|API_KEY)/;

describe('deploy/Dockerfile', () => {
  const dockerfile = parseDockerfile(read('deploy/Dockerfile'));
  const targets = [...processes, 'docs'];

  it('builds one target per process and the docs, each running as a non-root user with a health check', () => {
    for (const target of targets) {
      const stage = dockerfile.effective(target);
      expect([target, stage.user]).toEqual([target, '1000:1000']);
      expect(stage.healthcheck).toMatch(/^CMD \["node", "deploy\/healthcheck\.mjs"\]/);
      expect(stage.expose).toEqual([String(defaultHttpPorts[target as keyof typeof defaultHttpPorts])]);
      expect(stage.env.SESAME_HTTP_PORT).toBe(String(defaultHttpPorts[target as keyof typeof defaultHttpPorts]));
    }
  });

  it('starts each process from the entry point the local runner uses', () => {
    for (const name of processes) expect(dockerfile.effective(name).cmd).toBe(`["node", "${processEntries[name]}"]`);
  });

  it('pins every base image to an exact version, never latest', () => {
    expect(dockerfile.baseImages.length).toBeGreaterThan(0);
    for (const image of dockerfile.baseImages) expect(image).toMatch(/^[a-z0-9./-]+:[0-9]+\.[0-9]+\.[0-9]+[a-z0-9.-]*$/);
  });

  it('bakes in no secret: no ENV or ARG with a secret-looking name, no .env or key files copied', () => {
    for (const stage of dockerfile.stages) {
      for (const name of [...Object.keys(stage.env), ...stage.args])
        expect([stage.name, name]).not.toEqual([stage.name, expect.stringMatching(secretLike)]);
      for (const source of stage.copySources) expect(source).not.toMatch(/(^|\/)\.env|\.pem$|\.key$|\.data/);
    }
  });

  it('installs exactly the application workspaces (all but the docs) and copies sources that exist', () => {
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces.filter((w) => w !== 'docs');
    expect(dockerfile.stage('build').workspaceFlags.sort()).toEqual([...workspaces].sort());
    // The onboarding page is static files built in the build stage, the SDK a library for integrators:
    // neither has a runtime dependency of the image.
    const runtimeWorkspaces = workspaces.filter((w) => w !== 'onboarding' && w !== 'sdk/node');
    expect(dockerfile.stage('production-deps').workspaceFlags.sort()).toEqual([...runtimeWorkspaces].sort());
    const hasDocs = existsSync(join(repoRoot, 'docs/package.json'));
    for (const stage of dockerfile.stages)
      for (const source of stage.copySources)
        if (hasDocs || !/^docs(\/|$)/.test(source)) expect([source, existsSync(join(repoRoot, source))]).toEqual([source, true]);
  });

  it('keeps secrets, local data and build output out of the build context (.dockerignore)', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['.env', '.env.*', '.data', '**/node_modules', '**/dist', '.git', '**/*.pem', '**/*.key'])
      expect(ignored).toContain(entry);
    expect(ignored).toContain('!.env.example');
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, any>;
    networks: Record<string, any>;
  };
  const services = compose.services;

  it('runs every process from its image target on the production adapters', () => {
    for (const name of processes) {
      const service = services[name];
      expect([name, service.build]).toEqual([name, { context: '..', dockerfile: 'deploy/Dockerfile', target: name }]);
      expect(service.environment).toMatchObject({
        SESAME_EVENT_STORE: 'eventstoredb',
        SESAME_EVENTSTOREDB_URL: 'esdb://eventstore:2113?tls=false',
        SESAME_READ_MODEL: 'mongodb',
        SESAME_MONGODB_URL: 'mongodb://mongodb:27017/?replicaSet=rs0',
        SESAME_NATS_URL: 'nats://nats:4222',
        SESAME_HTTP_PORT: String(defaultHttpPorts[name]),
      });
      expect(service).toMatchObject({ read_only: true, cap_drop: ['ALL'], security_opt: ['no-new-privileges:true'] });
      for (const store of ['nats', 'eventstore', 'mongodb'])
        expect(service.depends_on[store]).toEqual({ condition: 'service_healthy' });
    }
  });

  it('runs NATS with JetStream, EventStoreDB and a MongoDB replica set, pinned and health-checked', () => {
    expect(services.nats.command).toContain('--jetstream');
    expect(services.mongodb.command).toEqual(['mongod', '--replSet', 'rs0', '--bind_ip_all']);
    expect(services.mongodb.healthcheck.test.join(' ')).toContain("rs.initiate({ _id: 'rs0'");
    for (const store of ['nats', 'eventstore', 'mongodb']) {
      expect(services[store].image).toMatch(/:[0-9]+\.[0-9]+\.[0-9]+/);
      expect(services[store].healthcheck.test[0]).toBe('CMD');
      expect(services[store].networks).toEqual(['backend']);
    }
  });

  it('publishes only the gateway and the docs, on loopback by default (the gateway management port always); the backend network has no way out', () => {
    const published = Object.entries(services)
      .filter(([, service]) => service.ports)
      .map(([name, service]) => [name, service.ports]);
    expect(services.gateway.environment.SESAME_MANAGEMENT_PORT).toBe('9080');
    expect(published).toEqual([
      [
        'gateway',
        [
          '${SESAME_BIND_ADDRESS:-127.0.0.1}:${SESAME_GATEWAY_PORT:-8080}:8080',
          '127.0.0.1:${SESAME_GATEWAY_MANAGEMENT_PORT:-9080}:9080',
        ],
      ],
      ['docs', ['${SESAME_BIND_ADDRESS:-127.0.0.1}:${SESAME_DOCS_PORT:-8000}:8000']],
    ]);
    expect(compose.networks.backend).toEqual({ internal: true });
  });

  it('requires the encryption key ring from the environment instead of containing one', () => {
    expect(services.gateway.environment.SESAME_ENCRYPTION_KEYS).toMatch(/^\$\{SESAME_ENCRYPTION_KEYS:\?/);
    for (const [name, service] of Object.entries(services))
      for (const [key, value] of Object.entries(service.environment ?? {}))
        if (secretLike.test(key)) expect([name, key, value]).toEqual([name, key, expect.stringMatching(/^\$\{/)]);
  });

  it('lets NATS admit one user per process, and gives each process only its own password, from deploy/.env', () => {
    expect(services.nats.command).toContain('--config=/etc/nats/authorization.conf');
    expect(services.nats.volumes).toContain('./nats-authorization.conf:/etc/nats/authorization.conf:ro');
    for (const role of natsRoles)
      expect(services.nats.environment[natsPasswordVariable(role)]).toMatch(
        new RegExp(`^\\$\\{${natsPasswordVariable(role)}:\\?`),
      );
    const users = [...processes.map((name) => [name, name]), ['first-api-key', 'cli']];
    for (const [name, role] of users as [string, (typeof natsRoles)[number]][]) {
      const { SESAME_NATS_USER, SESAME_NATS_PASSWORD } = services[name].environment;
      expect([name, SESAME_NATS_USER, SESAME_NATS_PASSWORD]).toEqual([
        name,
        role,
        expect.stringMatching(new RegExp(`^\\$\\{${natsPasswordVariable(role)}:\\?`)),
      ]);
    }
    expect(services.docs.environment).toBeUndefined();
    expect(services.docs.networks).toEqual(['egress']);
  });

  it('grants the permissions of the platform table for its prefix (node deploy/nats-files.mjs writes the file)', () => {
    expect(services.gateway.environment.SESAME_PREFIX).toBe('sesame');
    const variables = Object.fromEntries(natsRoles.map((role) => [role, { variable: natsPasswordVariable(role) }]));
    expect(read('deploy/nats-authorization.conf')).toContain(
      natsAuthorization(sesameNatsUsers('sesame', variables as Record<(typeof natsRoles)[number], { variable: string }>)),
    );
  });

  it('creates the first API key once, with a one-shot service on the auth-methods image', () => {
    expect(services['first-api-key']).toMatchObject({
      image: services['auth-methods'].image,
      restart: 'no',
      command: ['node', 'deploy/first-api-key.mjs', '--environment', 'sandbox'],
      depends_on: { 'auth-methods': { condition: 'service_healthy' } },
    });
  });
});

describe('helm/sesame/values.yaml', () => {
  const valuesText = readFileSync(join(chartDir, 'values.yaml'), 'utf8');
  const values = parse(valuesText) as Record<string, any>;
  const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8'));
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

  it('validates against values.schema.json, and the schema rejects a typo (ajv, independently of helm)', () => {
    expect(validate(values)).toBe(true);
    expect(validate({ ...values, gateway: { ...values.gateway, replicas: 3 } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/gateway', params: { additionalProperty: 'replicas' } });
  });

  it('every ci/*-values.yaml file validates against the schema too', () => {
    for (const file of readdirSync(join(chartDir, 'ci'))) {
      const merged = deepMerge(values, parse(readFileSync(join(chartDir, 'ci', file), 'utf8')));
      expect([file, validate(merged), validate.errors]).toEqual([file, true, null]);
    }
  });

  it('documents every setting with a comment line above it (Kubernetes objects passed through excepted)', () => {
    const passedThrough = new Set(['podSecurityContext', 'securityContext', 'updateStrategy', 'resources', 'probes', 'hosts']);
    const lines = valuesText.split('\n');
    const parents: { indent: number; key: string }[] = [];
    const undocumented: string[] = [];
    lines.forEach((line, index) => {
      const match = /^(\s*)([A-Za-z_][\w-]*):/.exec(line);
      if (!match) return;
      const indent = match[1].length;
      while (parents.length && parents[parents.length - 1].indent >= indent) parents.pop();
      const parent = parents[parents.length - 1]?.key;
      parents.push({ indent, key: match[2] });
      if (parent && passedThrough.has(parent)) return;
      let previous = index - 1;
      while (previous >= 0 && lines[previous].trim() === '') previous--;
      if (!lines[previous]?.trim().startsWith('#')) undocumented.push(`${index + 1}: ${line.trim()}`);
    });
    expect(undocumented).toEqual([]);
  });

  it('every .Values path the templates read exists in values.yaml', () => {
    const templatesDir = join(chartDir, 'templates');
    const files = readdirSync(templatesDir, { recursive: true })
      .map(String)
      .filter((f) => /\.(ya?ml|tpl|txt)$/.test(f));
    const missing: string[] = [];
    for (const file of files) {
      for (const [, path] of readFileSync(join(templatesDir, file), 'utf8').matchAll(/\.Values\.([A-Za-z0-9_.]+)/g)) {
        const keys = path.split('.').filter(Boolean);
        // config and secrets are open maps of environment variables: any key may be read.
        if ((keys[0] === 'config' || keys[0] === 'secrets') && keys.length === 2) continue;
        let node: any = values;
        for (const key of keys) node = node && typeof node === 'object' && key in node ? node[key] : undefined;
        if (node === undefined) missing.push(`${file}: .Values.${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the components the templates loop over all have values', () => {
    const helpers = readFileSync(join(chartDir, 'templates/_helpers.tpl'), 'utf8');
    const keys = [...helpers.matchAll(/^([a-zA-Z]+): \{ port: (\d+), name: ([a-z-]+),/gm)];
    expect(keys.map(([, , port, name]) => [name, Number(port)]).sort()).toEqual(
      [...processes, 'docs'].map((name) => [name, defaultHttpPorts[name as keyof typeof defaultHttpPorts]]).sort(),
    );
    for (const [, key] of keys) expect(values).toHaveProperty(key);
    expect(helpers).toMatch(
      new RegExp(`^gateway: \\{ port: 8080, name: gateway, managementPort: ${defaultManagementPort},`, 'm'),
    );
  });
});

describe('yamllint', () => {
  beforeAll(() => {
    if (spawnSync('sh', ['-c', 'command -v yamllint']).status === 0) return;
    if (process.getuid?.() !== 0) throw new Error('yamllint is missing: sudo apt-get install -y yamllint');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-q'], { env, stdio: 'ignore' });
    const install = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'yamllint'], {
      env,
      encoding: 'utf8',
    });
    if (install.status !== 0) throw new Error(`apt-get install yamllint failed: ${install.stderr}`);
  }, 300_000);

  const lint = (args: string[], input?: string) =>
    spawnSync('yamllint', ['-f', 'parsable', ...args], { cwd: repoRoot, encoding: 'utf8', input });
  const ours = ['-c', join(repoRoot, '.yamllint.yaml')];

  it('passes on the plain YAML files', () => {
    const files = [
      'deploy/compose.yaml',
      'deploy/compose.ci.yaml',
      'helm/sesame/Chart.yaml',
      'helm/sesame/values.yaml',
      '.yamllint.yaml',
      '.github/workflows/ci.yml',
    ];
    files.push(...readdirSync(join(chartDir, 'ci')).map((f) => `helm/sesame/ci/${f}`));
    const result = lint([...ours, ...files]);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('passes on the rendered manifests', () => {
    const config =
      '{extends: default, rules: {line-length: disable, document-start: disable, comments: disable, braces: disable, brackets: disable, indentation: {indent-sequences: whatever}}}';
    for (const values of ['full', 'extensions']) {
      const result = lint(['-d', config, '-'], renderText([ciValues(values)]));
      expect([values, result.stdout]).toEqual([values, '']);
    }
  });

  it('fails on a broken file (the linter is really running)', () => {
    const result = lint([...ours, '-'], 'a: 1\na: 2\n');
    expect(result.stdout).toContain('duplication of key "a" in mapping');
  });
});
