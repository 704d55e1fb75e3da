/**
 * The Helm chart, rendered by a real `helm` (see support/helm-binary.ts) and checked: `helm lint`,
 * the values schema, the Kubernetes API schemas of every rendered object, and the properties
 * operators rely on (probes, non-root, PDBs, NetworkPolicies, store wiring, generic configuration).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { natsPermissions } from '../../services/platform/src/messaging/nats-permissions';
import { natsRoles } from '../../services/platform/src/messaging/nats-connection';
import { defaultHttpPorts, defaultManagementPort } from '../../services/platform/src/runtime/ports';
import { processEntries } from '../../test/support/system';
import { allowed, ciValues, chartDir, egressAllowed, helm, named, ofKind, render, repoRoot, schemaErrors } from './support/chart';
import type { K8sObject } from './support/chart';
import { helmBinary } from './support/helm-binary';

const valueSets = ['default', 'full', 'external-stores', 'single-node', 'extensions'];
const processes = Object.keys(processEntries) as (keyof typeof processEntries)[];

beforeAll(() => {
  helmBinary();
}, 180_000);

describe('helm lint and render', () => {
  it.each(valueSets)('helm lint --strict passes with ci/%s-values.yaml', (name) => {
    const result = helm(['lint', chartDir, '--strict', '-f', ciValues(name)]);
    expect(result.stderr + result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it.each(valueSets)('every object rendered with ci/%s-values.yaml is valid against the Kubernetes API schemas', (name) => {
    const objects = render([ciValues(name)]);
    expect(objects.length).toBeGreaterThan(10);
    expect(schemaErrors(objects)).toEqual([]);
  });

  it('the schema check itself rejects a broken object', () => {
    const broken = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { replicas: 'two' } };
    expect(schemaErrors([broken as unknown as K8sObject])).toEqual([
      expect.objectContaining({ kind: 'Deployment', error: expect.stringContaining('must be integer') }),
    ]);
  });
});

describe('required settings and the values schema', () => {
  it('refuses to render without an encryption key ring, saying how to make one', () => {
    expect(() => render([])).toThrow(/secrets\.SESAME_ENCRYPTION_KEYS is required \(or existingSecret\): generate one with/);
  });

  it('refuses the built-in MongoDB without its credentials', () => {
    expect(() => render([], ['secrets.SESAME_ENCRYPTION_KEYS=k1:AAAA'])).toThrow(
      /mongodb\.enabled needs mongodb\.auth\.rootPassword, mongodb\.auth\.password and mongodb\.auth\.replicaSetKey/,
    );
  });

  it('refuses EventStoreDB as the event store when it is neither run nor given by URL', () => {
    expect(() => render([ciValues('default')], ['eventstoredb.enabled=false'])).toThrow(
      /config\.SESAME_EVENT_STORE=eventstoredb needs eventstoredb\.enabled=true or SESAME_EVENTSTOREDB_URL/,
    );
  });

  it('refuses external NATS without its URL, and a two-server NATS cluster', () => {
    expect(() => render([ciValues('default')], ['nats.enabled=false'])).toThrow(
      /nats\.enabled=false needs config\.SESAME_NATS_URL/,
    );
    expect(() => render([ciValues('default')], ['nats.replicas=2'])).toThrow(/nats\.replicas must be 1 or at least 3/);
  });

  it.each([
    ['gateway.replicaCount=-1', "at '/gateway/replicaCount': minimum: got -1, want 0"],
    ['config.SESAME_EVENT_STORE=postgres', "at '/config/SESAME_EVENT_STORE': value must be one of 'eventstoredb', 'jetstream'"],
    ['gateway.replicas=3', "at '/gateway': additional properties 'replicas' not allowed"],
    ['eventstoredb.replicas=2', "at '/eventstoredb/replicas': value must be one of 1, 3, 5"],
    ['config.bad-name=1', "invalid propertyName 'bad-name'"],
    ['gateway.image.digest=latest', "at '/gateway/image/digest': 'latest' does not match pattern"],
    ['nats.image.digest=sha256:abc', "at '/nats/image/digest': 'sha256:abc' does not match pattern"],
    ['app.priorityClassName=Not_Valid', "at '/app/priorityClassName': 'Not_Valid' does not match pattern"],
    ['app.extraEnv[0].value=x', "at '/app/extraEnv/0': missing property 'name'"],
    ['identity.extraVolumeMounts[0].name=x', "at '/identity/extraVolumeMounts/0': missing property 'mountPath'"],
    ['app.extraContainers[0].name=x', "at '/app/extraContainers/0': missing property 'image'"],
    [
      'app.topologySpreadConstraints[0].maxSkew=1',
      "at '/app/topologySpreadConstraints/0': missing properties 'topologyKey', 'whenUnsatisfiable'",
    ],
    ['gateway.httpRoute.hostname=x', "at '/gateway/httpRoute': additional properties 'hostname' not allowed"],
    ['gateway.autoscaling.metrics[0].kind=Pods', "at '/gateway/autoscaling/metrics/0': missing property 'type'"],
    ['proxy.httpsProxy=proxy:3128', "at '/proxy/httpsProxy': 'proxy:3128' does not match pattern"],
  ])('values.schema.json rejects %s', (set, message) => {
    expect(() => render([ciValues('default')], [set])).toThrow(message);
  });
});

describe('the Sesame Deployments', () => {
  const objects = () => render([ciValues('default')]);
  const components = [...processes, 'docs'];

  it('run every process and the docs, each on its own port, with a Service and a PodDisruptionBudget', () => {
    const rendered = objects();
    for (const name of components) {
      const deployment = named(rendered, 'Deployment', `sesame-${name}`);
      const container = deployment.spec.template.spec.containers[0];
      const port = defaultHttpPorts[name as keyof typeof defaultHttpPorts];
      expect(container.image).toBe(`sesame-${name}:0.1.0`);
      const management =
        name === 'gateway' ? [{ name: 'management', containerPort: defaultManagementPort, protocol: 'TCP' }] : [];
      expect(container.ports).toEqual([{ name: 'http', containerPort: port, protocol: 'TCP' }, ...management]);
      expect(container.env).toContainEqual({ name: 'SESAME_HTTP_PORT', value: String(port) });
      if (name === 'gateway')
        expect(container.env).toContainEqual({ name: 'SESAME_MANAGEMENT_PORT', value: String(defaultManagementPort) });
      expect(named(rendered, 'Service', `sesame-${name}`).spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(named(rendered, 'PodDisruptionBudget', `sesame-${name}`).spec).toEqual({
        maxUnavailable: 1,
        selector: deployment.spec.selector,
      });
      expect(deployment.spec.replicas).toBe(2);
      expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    }
  });

  it('probe /healthz for liveness and /readyz for readiness, and sleep before SIGTERM so that endpoints drain', () => {
    for (const name of processes) {
      const pod = named(objects(), 'Deployment', `sesame-${name}`).spec.template.spec;
      const container = pod.containers[0];
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(5 + 15);
    }
  });

  it('run as non-root with a read-only root file system, no capabilities and memory limits', () => {
    for (const name of components) {
      const pod = named(objects(), 'Deployment', `sesame-${name}`).spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.containers[0].securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(pod.containers[0].resources.limits.memory).toMatch(/Mi|Gi/);
      expect(pod.containers[0].resources.requests.cpu).toBeDefined();
    }
  });

  it('take their configuration from the ConfigMap and the Secret, and restart when either changes', () => {
    const rendered = objects();
    const configMap = named(rendered, 'ConfigMap', 'sesame-env');
    const secret = named(rendered, 'Secret', 'sesame-env');
    expect(secret.metadata.annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
    const deployment = named(rendered, 'Deployment', 'sesame-identity');
    expect(deployment.spec.template.spec.containers[0].envFrom).toEqual([
      { configMapRef: { name: configMap.metadata.name } },
      { secretRef: { name: secret.metadata.name } },
    ]);
    const before = deployment.spec.template.metadata.annotations;
    const changed = named(render([ciValues('default')], ['config.SESAME_LOG_LEVEL=debug']), 'Deployment', 'sesame-identity');
    expect(changed.spec.template.metadata.annotations['checksum/config']).not.toBe(before['checksum/config']);
    expect(changed.spec.template.metadata.annotations['checksum/secret']).toBe(before['checksum/secret']);
  });

  it('are scraped by Prometheus through pod annotations (not the docs), the gateway on its management port', () => {
    const rendered = objects();
    expect(named(rendered, 'Deployment', 'sesame-webhooks').spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '8084',
      'prometheus.io/path': '/metrics',
    });
    expect(named(rendered, 'Deployment', 'sesame-gateway').spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/port': String(defaultManagementPort),
    });
    expect(named(rendered, 'Service', 'sesame-gateway').spec.ports).toEqual([
      { name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' },
      { name: 'metrics', port: defaultManagementPort, targetPort: 'management', protocol: 'TCP' },
    ]);
    expect(named(rendered, 'Service', 'sesame-identity').spec.ports).toEqual([
      { name: 'http', port: 8081, targetPort: 'http', protocol: 'TCP' },
      { name: 'metrics', port: 8081, targetPort: 'http', protocol: 'TCP' },
    ]);
    expect(
      named(rendered, 'Deployment', 'sesame-docs').spec.template.metadata.annotations['prometheus.io/scrape'],
    ).toBeUndefined();
  });
});

describe('configuration', () => {
  it('passes any new variable of `config` and `secrets` to every process without a template change', () => {
    const rendered = render(
      [ciValues('default')],
      ['config.SESAME_SMTP_HOST=smtp.example.com', 'secrets.SESAME_SMTP_PASSWORD=s3cret', 'config.SESAME_SHUTDOWN_GRACE_MS='],
    );
    const configMap = named(rendered, 'ConfigMap', 'sesame-env');
    expect(configMap.data).toMatchObject({
      SESAME_SMTP_HOST: 'smtp.example.com',
      SESAME_MODE: 'production',
      SESAME_HTTP_HOST: '0.0.0.0',
    });
    expect(configMap.data).not.toHaveProperty('SESAME_SHUTDOWN_GRACE_MS');
    expect(named(rendered, 'Secret', 'sesame-env').stringData).toEqual({
      SESAME_ENCRYPTION_KEYS: 'k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
      SESAME_SMTP_PASSWORD: 's3cret',
    });
  });

  it('wires the processes to the NATS cluster, EventStoreDB cluster and MongoDB replica set it runs', () => {
    const env = named(render([ciValues('default')]), 'Deployment', 'sesame-auth-methods').spec.template.spec.containers[0].env;
    const members = (name: string, port: number) =>
      [0, 1, 2].map((i) => `sesame-${name}-${i}.sesame-${name}-headless.auth.svc:${port}`).join(',');
    expect(env).toEqual([
      { name: 'SESAME_HTTP_PORT', value: '8082' },
      { name: 'SESAME_NATS_URL', value: 'nats://sesame-nats:4222' },
      { name: 'SESAME_JETSTREAM_REPLICAS', value: '3' },
      { name: 'SESAME_EVENTSTOREDB_URL', value: `esdb://${members('eventstoredb', 2113)}?tls=false` },
      { name: 'SESAME_MONGODB_PASSWORD', valueFrom: { secretKeyRef: { name: 'sesame-mongodb-auth', key: 'mongodb-password' } } },
      {
        name: 'SESAME_MONGODB_URL',
        value: `mongodb://sesame:$(SESAME_MONGODB_PASSWORD)@${members('mongodb', 27017)}/sesame?replicaSet=rs0&authSource=admin`,
      },
      { name: 'SESAME_NATS_USER', value: 'auth-methods' },
      { name: 'SESAME_NATS_PASSWORD', valueFrom: { secretKeyRef: { name: 'sesame-nats-credentials', key: 'auth-methods' } } },
    ]);
  });

  it('runs the NATS the cluster reliability scenario last proved: its version, three nodes, streams at replication 3', () => {
    // bench/results/cluster-reliability.json is written by test/reliability/cluster.reliability.spec.ts
    // (three nodes, SESAME_JETSTREAM_REPLICAS=3) with the nats-server it ran.
    const proved = JSON.parse(readFileSync(join(repoRoot, 'bench/results/cluster-reliability.json'), 'utf8')) as {
      natsServer: string;
    };
    const version = /v(\d+\.\d+\.\d+)/.exec(proved.natsServer)?.[1];
    const objects = render([ciValues('default')]);
    const nats = named(objects, 'StatefulSet', 'sesame-nats');
    expect([nats.spec.replicas, nats.spec.template.spec.containers[0].image]).toEqual([3, `nats:${version}-alpine`]);
    const env = named(objects, 'Deployment', 'sesame-identity').spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'SESAME_JETSTREAM_REPLICAS', value: '3' });
  });

  it('runs no store and sets no store address when the stores are external, only the NATS credentials', () => {
    const rendered = render([ciValues('external-stores')]);
    expect(ofKind(rendered, 'StatefulSet')).toEqual([]);
    expect(ofKind(rendered, 'Secret')).toEqual([]);
    const container = named(rendered, 'Deployment', 'sesame-identity').spec.template.spec.containers[0];
    expect(container.env).toEqual([
      { name: 'SESAME_HTTP_PORT', value: '8081' },
      { name: 'SESAME_NATS_USER', value: 'identity' },
      { name: 'SESAME_NATS_PASSWORD', valueFrom: { secretKeyRef: { name: 'sesame-nats-credentials', key: 'identity' } } },
    ]);
    expect(container.envFrom[1]).toEqual({ secretRef: { name: 'sesame-env' } });
    expect(named(rendered, 'ConfigMap', 'sesame-env').data).toMatchObject({
      SESAME_NATS_URL: 'nats://nats.messaging.svc:4222',
      SESAME_PUBLIC_URL: 'https://auth.example.com',
    });
    expect(rendered.find((o) => o.kind === 'Deployment' && o.metadata.name === 'sesame-docs')).toBeUndefined();
  });

  it('derives the public URLs from the Ingresses, else from the in-cluster Service', () => {
    expect(named(render([ciValues('full')]), 'ConfigMap', 'sesame-env').data).toMatchObject({
      SESAME_PUBLIC_URL: 'https://auth.example.com',
      SESAME_DOCS_URL: 'https://docs.example.com',
    });
    expect(named(render([ciValues('default')]), 'ConfigMap', 'sesame-env').data.SESAME_PUBLIC_URL).toBe(
      'http://sesame-gateway.auth.svc:8080',
    );
  });
});

describe('optional features', () => {
  const rendered = () => render([ciValues('full')]);

  it('autoscales with HorizontalPodAutoscalers, leaving the replica count to them', () => {
    const objects = rendered();
    const hpa = named(objects, 'HorizontalPodAutoscaler', 'sesame-gateway');
    expect(hpa.spec).toMatchObject({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'sesame-gateway' },
      minReplicas: 3,
      maxReplicas: 12,
    });
    expect(hpa.spec.metrics.map((m: any) => m.resource.name)).toEqual(['cpu', 'memory']);
    expect(named(objects, 'Deployment', 'sesame-gateway').spec.replicas).toBeUndefined();
    expect(named(objects, 'Deployment', 'sesame-identity').spec.replicas).toBe(2);
  });

  it('exposes the gateway and the docs through Ingresses with TLS', () => {
    const objects = rendered();
    const ingress = named(objects, 'Ingress', 'sesame-gateway');
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      tls: [{ secretName: 'auth-tls', hosts: ['auth.example.com'] }],
      rules: [
        {
          host: 'auth.example.com',
          http: {
            paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'sesame-gateway', port: { name: 'http' } } } }],
          },
        },
      ],
    });
    expect(named(objects, 'Ingress', 'sesame-docs').spec.rules[0].host).toBe('docs.example.com');
    expect(ofKind(objects, 'Ingress')).toHaveLength(2);
  });

  it('creates a ServiceMonitor for the gateway and the services', () => {
    const monitor = named(rendered(), 'ServiceMonitor', 'sesame');
    expect(monitor.metadata.labels).toMatchObject({ release: 'prometheus' });
    expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '15s' }]);
    expect(monitor.spec.selector.matchExpressions[0].values).toEqual(['gateway', ...processes.filter((p) => p !== 'gateway')]);
  });

  it('runs the first-API-key Job after install, on the auth-methods image with the same configuration', () => {
    const job = named(rendered(), 'Job', 'sesame-first-api-key');
    expect(job.metadata.annotations).toEqual({
      'helm.sh/hook': 'post-install',
      'helm.sh/hook-delete-policy': 'before-hook-creation',
    });
    const container = job.spec.template.spec.containers[0];
    expect(container.image).toBe('registry.example.com/sesame-auth-methods:0.1.0');
    expect(container.command).toEqual([
      'node',
      'deploy/first-api-key.mjs',
      '--environment',
      'sandbox',
      '--kubernetes-secret',
      'sesame-first-api-key',
    ]);
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'sesame-env' } }, { secretRef: { name: 'sesame-env' } }]);
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it('lets the first-API-key Job create Secrets and nothing else, with a service account of its own, before it runs', () => {
    const objects = rendered();
    const pod = named(objects, 'Job', 'sesame-first-api-key').spec.template.spec;
    expect(pod).toMatchObject({ serviceAccountName: 'sesame-first-api-key', automountServiceAccountToken: true });
    expect(named(objects, 'Role', 'sesame-first-api-key').rules).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
    ]);
    expect(named(objects, 'RoleBinding', 'sesame-first-api-key')).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'sesame-first-api-key' },
      subjects: [{ kind: 'ServiceAccount', name: 'sesame-first-api-key', namespace: 'auth' }],
    });
    // Hooks run by weight: the account and its rights exist before the Job starts.
    const weight = (kind: string) =>
      Number(named(objects, kind, 'sesame-first-api-key').metadata.annotations['helm.sh/hook-weight'] ?? 0);
    for (const kind of ['ServiceAccount', 'Role', 'RoleBinding'])
      expect([kind, weight(kind) < weight('Job')]).toEqual([kind, true]);
    // The services' own account gets no such right.
    expect(ofKind(objects, 'RoleBinding').map((binding: any) => binding.metadata.name)).toEqual(['sesame-first-api-key']);
    const chosen = render([ciValues('full')], ['firstApiKey.secretName=acme-first-key']);
    expect(named(chosen, 'Job', 'sesame-first-api-key').spec.template.spec.containers[0].command.at(-1)).toBe('acme-first-key');
  });

  it('tells the operator how to get the first API key', () => {
    const result = helm(['install', 'sesame', chartDir, '-n', 'auth', '--dry-run=client', '-f', ciValues('default')]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'kubectl -n auth exec deploy/sesame-auth-methods -- \\\n     node services/auth-methods/dist/cli/sesame.js api-keys create --environment sandbox',
    );
  });

  it('tells the operator which Secret the first-API-key Job wrote, and to delete it once read', () => {
    const result = helm(['install', 'sesame', chartDir, '-n', 'auth', '--dry-run=client', '-f', ciValues('full')]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('into the Secret\n   sesame-first-api-key (its log names the client_id, never the secret)');
    expect(result.stdout).toContain(
      "kubectl -n auth get secret sesame-first-api-key -o jsonpath='{.data.client_secret}' | base64 -d",
    );
    expect(result.stdout).toContain('kubectl -n auth delete secret sesame-first-api-key');
    expect(result.stdout).not.toContain('logs job/');
  });

  it('uses existing Secrets instead of rendering its own', () => {
    const objects = rendered();
    expect(ofKind(objects, 'Secret')).toEqual([]);
    const pod = named(objects, 'StatefulSet', 'sesame-mongodb').spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'secrets', secret: { secretName: 'sesame-mongodb' } });
  });
});

describe('NetworkPolicies', () => {
  const objects = render([ciValues('default')]);
  const policies = ofKind(objects, 'NetworkPolicy');
  const podOf = (kind: string, name: string) => {
    const workload = named(objects, kind, `sesame-${name}`);
    return { labels: workload.spec.template.metadata.labels as Record<string, string>, sameNamespace: true };
  };
  const outsider = {
    labels: { app: 'anything' },
    sameNamespace: false,
    namespaceLabels: { 'kubernetes.io/metadata.name': 'other' },
  };
  const neighbour = { labels: { app: 'anything' }, sameNamespace: true };

  it('let only the gateway and the docs be reached from outside', () => {
    for (const name of ['gateway', 'docs']) {
      const target = { labels: podOf('Deployment', name).labels, port: 'http' };
      expect(allowed(policies, target, outsider)).toBe(true);
    }
    for (const name of processes.filter((p) => p !== 'gateway')) {
      const target = { labels: podOf('Deployment', name).labels, port: 'http' };
      expect([name, allowed(policies, target, outsider)]).toEqual([name, false]);
      expect([name, allowed(policies, target, neighbour)]).toEqual([name, false]);
    }
  });

  it('let the Sesame processes reach the stores, and nothing else', () => {
    const stores = { nats: 4222, eventstoredb: 2113, mongodb: 27017 };
    for (const [store, port] of Object.entries(stores)) {
      const target = { labels: podOf('StatefulSet', store).labels, port };
      for (const name of processes)
        expect([store, name, allowed(policies, target, podOf('Deployment', name))]).toEqual([store, name, true]);
      expect([store, 'docs', allowed(policies, target, podOf('Deployment', 'docs'))]).toEqual([store, 'docs', false]);
      expect([store, 'neighbour', allowed(policies, target, neighbour)]).toEqual([store, 'neighbour', false]);
      expect([store, 'outsider', allowed(policies, target, outsider)]).toEqual([store, 'outsider', false]);
    }
  });

  it('keep the docs pod off NATS and everything else: it may send nowhere', () => {
    const docs = podOf('Deployment', 'docs');
    expect(egressAllowed(policies, docs, { labels: podOf('StatefulSet', 'nats').labels, port: 4222 })).toBe(false);
    expect(egressAllowed(policies, docs, { labels: podOf('Deployment', 'identity').labels, port: 8081 })).toBe(false);
    expect(
      egressAllowed(policies, podOf('Deployment', 'gateway'), { labels: podOf('StatefulSet', 'nats').labels, port: 4222 }),
    ).toBe(true);
    expect(named(objects, 'Deployment', 'sesame-docs').spec.template.spec.containers[0].envFrom).toBeUndefined();
  });

  it('let store members talk to their peers (NATS routes, EventStoreDB replication, MongoDB replication)', () => {
    const peers = { nats: 6222, eventstoredb: 1112, mongodb: 27017 };
    for (const [store, port] of Object.entries(peers)) {
      const member = podOf('StatefulSet', store);
      expect([store, allowed(policies, { labels: member.labels, port }, member)]).toEqual([store, true]);
    }
  });

  it('restrict the public components and the scrapers to the configured peers', () => {
    const restricted = ofKind(render([ciValues('full')]), 'NetworkPolicy');
    const gateway = { labels: podOf('Deployment', 'gateway').labels, port: 'http' };
    const identity = { labels: podOf('Deployment', 'identity').labels, port: 'http' };
    const ingressController = {
      labels: {},
      sameNamespace: false,
      namespaceLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' },
    };
    const prometheus = { labels: {}, sameNamespace: false, namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' } };
    expect(allowed(restricted, gateway, ingressController)).toBe(true);
    expect(allowed(restricted, gateway, outsider)).toBe(false);
    expect(allowed(restricted, identity, prometheus)).toBe(true);
    expect(allowed(restricted, identity, ingressController)).toBe(false);
    const gatewayMetrics = { ...gateway, port: 'management' };
    expect(allowed(restricted, gatewayMetrics, prometheus)).toBe(true);
    expect(allowed(restricted, gatewayMetrics, ingressController)).toBe(false);
    expect(allowed(restricted, gatewayMetrics, outsider)).toBe(false);
    expect(allowed(policies, gatewayMetrics, outsider)).toBe(false);
  });
});

describe('the stores', () => {
  const objects = render([ciValues('default')]);

  it.each([
    ['nats', 3],
    ['eventstoredb', 3],
    ['mongodb', 3],
  ])('%s runs as a StatefulSet of %i members with persistent volumes, probes and a PodDisruptionBudget', (name, replicas) => {
    const set = named(objects, 'StatefulSet', `sesame-${name}`);
    expect(set.spec.replicas).toBe(replicas);
    expect(set.spec.serviceName).toBe(`sesame-${name}-headless`);
    expect(named(objects, 'Service', `sesame-${name}-headless`).spec).toMatchObject({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
    });
    expect(set.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    const container = set.spec.template.spec.containers[0];
    expect(container.image).toMatch(/:[0-9]+\.[0-9]+\.[0-9]+/);
    expect(container.livenessProbe).toBeDefined();
    expect(container.readinessProbe).toBeDefined();
    expect(set.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(named(objects, 'PodDisruptionBudget', `sesame-${name}`).spec.selector).toEqual(set.spec.selector);
  });

  it('NATS servers route to each other as one JetStream cluster', () => {
    const config = named(objects, 'ConfigMap', 'sesame-nats-config').data!['nats.conf'];
    expect(config).toContain('jetstream {');
    for (const i of [0, 1, 2]) expect(config).toContain(`nats://sesame-nats-${i}.sesame-nats-headless.auth.svc:6222`);
  });

  it('EventStoreDB nodes find each other by gossip and advertise their stable names', () => {
    const env = named(objects, 'StatefulSet', 'sesame-eventstoredb').spec.template.spec.containers[0].env;
    const value = (name: string) => env.find((e: any) => e.name === name)?.value;
    expect(value('EVENTSTORE_CLUSTER_SIZE')).toBe('3');
    expect(value('EVENTSTORE_GOSSIP_SEED')?.split(',')).toHaveLength(3);
    expect(value('EVENTSTORE_ADVERTISE_HOST_TO_CLIENT_AS')).toBe('$(POD_NAME).sesame-eventstoredb-headless.auth.svc');
  });

  it('MongoDB members authenticate with the replica-set key, and member 0 sets up the set and the users', () => {
    const objectsWithScript = named(objects, 'ConfigMap', 'sesame-mongodb-scripts').data!['mongod.sh'];
    expect(objectsWithScript).toContain(
      '--replSet "$REPLICA_SET" --bind_ip_all --port 27017 --dbpath /data/db --keyFile /keyfile/key',
    );
    expect(objectsWithScript).toContain('rs.initiate($config)');
    const env = named(objects, 'StatefulSet', 'sesame-mongodb').spec.template.spec.containers[0].env;
    expect(env.find((e: any) => e.name === 'MEMBERS').value).toBe(
      [0, 1, 2]
        .map(
          (i) =>
            `{ _id: ${i}, host: 'sesame-mongodb-${i}.sesame-mongodb-headless.auth.svc:27017', priority: ${i === 0 ? 2 : 1} }`,
        )
        .join(', '),
    );
  });

  it('single-node values run one NATS server with JetStream as the event store and nothing else', () => {
    const single = render([ciValues('single-node')]);
    expect(ofKind(single, 'StatefulSet').map((s) => [s.metadata.name, s.spec.replicas])).toEqual([['sesame-nats', 1]]);
    expect(named(single, 'ConfigMap', 'sesame-nats-config').data!['nats.conf']).not.toContain('cluster {');
    expect(named(single, 'Deployment', 'sesame-gateway').spec.template.spec.containers[0].env).toContainEqual({
      name: 'SESAME_JETSTREAM_REPLICAS',
      value: '1',
    });
    expect(ofKind(single, 'PodDisruptionBudget').map((p) => p.metadata.name)).toEqual(['sesame-nats']);
  });
});

describe('NATS credentials, permissions and TLS', () => {
  const objects = render([ciValues('default')]);
  const natsConfig = (rendered: K8sObject[]) => named(rendered, 'ConfigMap', 'sesame-nats-config').data!['nats.conf'];
  /** The users of the rendered nats.conf: name, password variable and permissions. */
  const usersOf = (config: string) =>
    [...config.matchAll(/\{ user: "([a-z-]+)", password: \$([A-Z_]+), permissions: (\{.*\}) \}/g)].map(
      ([, user, variable, json]) => ({
        user,
        variable,
        permissions: JSON.parse(json as string),
      }),
    );
  const secretRefs = (spec: unknown) => JSON.stringify(spec).match(/"secretKeyRef":\{[^}]*\}/g) ?? [];

  it('makes NATS admit one user per process, each with the permissions of the platform table for the prefix', () => {
    const users = usersOf(natsConfig(objects));
    const table = natsPermissions('sesame');
    expect(users.map((user) => user.user)).toEqual([...natsRoles].sort());
    for (const { user, variable, permissions } of users) {
      expect(variable).toBe(`SESAME_NATS_PASSWORD_${user.toUpperCase().replace('-', '_')}`);
      expect(permissions).toEqual(table[user as keyof typeof table]);
    }
    const acme = usersOf(natsConfig(render([ciValues('default')], ['config.SESAME_PREFIX=acme'])));
    expect(acme.find((user) => user.user === 'webhooks')?.permissions).toEqual(natsPermissions('acme').webhooks);
  });

  it('ships the permission file the platform table generates (node deploy/nats-files.mjs)', () => {
    const file = readFileSync(join(chartDir, 'files/nats-permissions.json'), 'utf8');
    expect(file).toBe(`${JSON.stringify(natsPermissions('__prefix__'), null, 2)}\n`);
  });

  it('gives every process its own user and only its own password; the docs none; NATS all of them', () => {
    for (const name of processes) {
      const pod = named(objects, 'Deployment', `sesame-${name}`).spec.template.spec;
      expect(pod.containers[0].env).toContainEqual({ name: 'SESAME_NATS_USER', value: name });
      expect([name, secretRefs(pod).filter((ref) => ref.includes('nats-credentials'))]).toEqual([
        name,
        [`"secretKeyRef":{"name":"sesame-nats-credentials","key":"${name}"}`],
      ]);
    }
    expect(secretRefs(named(objects, 'Deployment', 'sesame-docs').spec)).toEqual([]);
    const job = named(render([ciValues('full')]), 'Job', 'sesame-first-api-key').spec.template.spec.containers[0];
    expect(job.env).toContainEqual({ name: 'SESAME_NATS_USER', value: 'cli' });
    const nats = named(objects, 'StatefulSet', 'sesame-nats').spec.template.spec.containers[0];
    expect(nats.env.filter((variable: any) => variable.name.startsWith('SESAME_NATS_PASSWORD_')).length).toBe(
      natsRoles.length + 1,
    );
    expect(natsConfig(objects)).toContain('{ user: "admin", password: $SESAME_NATS_PASSWORD_ADMIN }');
    for (const name of [...processes, 'docs'])
      expect([name, JSON.stringify(named(objects, 'Deployment', `sesame-${name}`).spec)]).not.toEqual([
        name,
        expect.stringContaining('"key":"admin"'),
      ]);
  });

  it('generates the passwords into a Secret kept on uninstall, or uses an existing one', () => {
    const secret = named(objects, 'Secret', 'sesame-nats-credentials');
    expect(secret.metadata.annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
    expect(Object.keys(secret.data!).sort()).toEqual([...natsRoles, 'admin'].sort());
    for (const value of Object.values(secret.data!)) expect(Buffer.from(value, 'base64').toString()).toMatch(/^[A-Za-z0-9]{32}$/);
    const existing = render([ciValues('default')], ['nats.auth.existingSecret=mine']);
    expect(ofKind(existing, 'Secret').map((s) => s.metadata.name)).not.toContain('sesame-nats-credentials');
    expect(secretRefs(named(existing, 'Deployment', 'sesame-gateway').spec)).toContain(
      '"secretKeyRef":{"name":"mine","key":"gateway"}',
    );
  });

  it('serves NATS over mutual TLS with the secrets given, and mounts the CA and client certificate into each process', () => {
    const rendered = render([ciValues('full')]);
    expect(natsConfig(rendered)).toContain(
      'tls {\n  cert_file: /etc/nats-tls/server/tls.crt\n  key_file: /etc/nats-tls/server/tls.key\n  # Clients present a certificate signed by this CA.\n  ca_file: /etc/nats-tls/ca/ca.crt\n  verify: true\n}',
    );
    const pod = named(rendered, 'Deployment', 'sesame-webhooks').spec.template.spec;
    expect(pod.containers[0].env).toEqual(
      expect.arrayContaining([
        { name: 'SESAME_NATS_TLS_CA', value: '/etc/sesame/nats-ca/ca.crt' },
        { name: 'SESAME_NATS_TLS_CERT', value: '/etc/sesame/nats-client/tls.crt' },
        { name: 'SESAME_NATS_TLS_KEY', value: '/etc/sesame/nats-client/tls.key' },
      ]),
    );
    expect(pod.volumes).toContainEqual({
      name: 'nats-ca',
      secret: { secretName: 'sesame-nats-tls', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
    });
    expect(pod.containers[0].volumeMounts).toContainEqual({
      name: 'nats-client',
      mountPath: '/etc/sesame/nats-client',
      readOnly: true,
    });
    expect(named(rendered, 'Deployment', 'sesame-docs').spec.template.spec.volumes).toEqual([
      { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
    ]);
    expect(natsConfig(objects)).not.toContain('tls {');
  });

  it('refuses TLS without a server certificate, and no credentials for the NATS it runs', () => {
    expect(() => render([ciValues('default')], ['nats.tls.enabled=true'])).toThrow(
      /nats\.tls\.enabled needs nats\.tls\.serverSecret/,
    );
    expect(() => render([ciValues('default')], ['nats.auth.enabled=false'])).toThrow(
      /nats\.auth\.enabled=false is for an external NATS only/,
    );
  });
});

describe('the gateway behind the ingress', () => {
  const trustProxy = (rendered: K8sObject[]) =>
    named(rendered, 'Deployment', 'sesame-gateway').spec.template.spec.containers[0].env.find(
      (variable: any) => variable.name === 'SESAME_TRUST_PROXY',
    );

  it('trusts the ingress hop count of X-Forwarded-For (gateway.trustProxy), and only on the gateway', () => {
    expect(trustProxy(render([ciValues('default')]))).toEqual({ name: 'SESAME_TRUST_PROXY', value: '1' });
    expect(trustProxy(render([ciValues('full')]))).toEqual({ name: 'SESAME_TRUST_PROXY', value: '2' });
    expect(trustProxy(render([ciValues('default')], ['gateway.trustProxy=0']))).toEqual({
      name: 'SESAME_TRUST_PROXY',
      value: 'false',
    });
    const identity = named(render([ciValues('default')]), 'Deployment', 'sesame-identity').spec.template.spec.containers[0];
    expect(identity.env.map((variable: any) => variable.name)).not.toContain('SESAME_TRUST_PROXY');
  });

  it('leaves SESAME_TRUST_PROXY to the ConfigMap when config sets it', () => {
    const rendered = render([ciValues('default')], ['config.SESAME_TRUST_PROXY=3']);
    expect(trustProxy(rendered)).toBeUndefined();
    expect(named(rendered, 'ConfigMap', 'sesame-env').data).toMatchObject({ SESAME_TRUST_PROXY: '3' });
  });
});

describe('extension points (ci/extensions-values.yaml sets every one)', () => {
  const objects = render([ciValues('extensions')]);
  const components = [...processes, 'docs'];
  const podOf = (name: string) => named(objects, 'Deployment', `sesame-${name}`).spec.template.spec;
  const mainOf = (name: string) => podOf(name).containers[0];
  const jobPod = () => named(objects, 'Job', 'sesame-first-api-key').spec.template.spec;
  const names = (list: { name: string }[] | undefined) => (list ?? []).map((item) => item.name);

  it("adds app.extraEnv after the chart's own variables to every Sesame container and the Job, and a component's only to it", () => {
    const own: Record<string, string[]> = {
      identity: ['SESAME_SMS_HTTP_TOKEN'],
      'auth-methods': ['SESAME_PASSWORD_BREACH_RANGE_URL'],
    };
    for (const container of [...components.map(mainOf), jobPod().containers[0]]) {
      const env = names(container.env);
      const at = env.indexOf('NODE_EXTRA_CA_CERTS');
      expect([container.name, env.slice(at)]).toEqual([
        container.name,
        ['NODE_EXTRA_CA_CERTS', 'POD_NAME', ...(own[container.name] ?? [])],
      ]);
      expect(env.indexOf('SESAME_HTTP_PORT') < at || container.name === 'first-api-key').toBe(true);
    }
    expect(mainOf('identity').env.at(-1)).toEqual({
      name: 'SESAME_SMS_HTTP_TOKEN',
      valueFrom: { secretKeyRef: { name: 'sms-provider', key: 'token' } },
    });
    expect(mainOf('auth-methods').env).toContainEqual({
      name: 'SESAME_PASSWORD_BREACH_RANGE_URL',
      value: 'https://api.pwnedpasswords.com/range/',
    });
    for (const name of components.filter((c) => c !== 'identity'))
      expect([name, names(mainOf(name).env)]).not.toEqual([name, expect.arrayContaining(['SESAME_SMS_HTTP_TOKEN'])]);
  });

  it("adds extraEnvFrom after the chart's ConfigMap and Secret (the docs get only the extra ones)", () => {
    const extra = [
      { configMapRef: { name: 'sesame-site-settings' } },
      { prefix: 'SESAME_', secretRef: { name: 'sesame-site-secrets', optional: true } },
    ];
    const chart = [{ configMapRef: { name: 'sesame-env' } }, { secretRef: { name: 'sesame-env' } }];
    expect(mainOf('gateway').envFrom).toEqual([...chart, ...extra]);
    expect(mainOf('webhooks').envFrom).toEqual([...chart, ...extra, { secretRef: { name: 'webhook-extra' } }]);
    expect(mainOf('docs').envFrom).toEqual(extra);
    expect(jobPod().containers[0].envFrom).toEqual([...chart, ...extra]);
  });

  it("mounts extraVolumes into the Sesame container only (not the sidecars), app's everywhere and a component's in it alone", () => {
    for (const name of components) {
      expect([name, names(podOf(name).volumes)]).toEqual([name, expect.arrayContaining(['tmp', 'ca-bundle'])]);
      expect(mainOf(name).volumeMounts).toContainEqual({ name: 'ca-bundle', mountPath: '/etc/sesame/ca', readOnly: true });
      for (const sidecar of podOf(name).containers.slice(1)) expect(sidecar.volumeMounts).toBeUndefined();
    }
    expect(podOf('identity').volumes.at(-1)).toEqual({ name: 'mail-templates', configMap: { name: 'sesame-mail-templates' } });
    expect(mainOf('identity').volumeMounts.at(-1)).toEqual({
      name: 'mail-templates',
      mountPath: '/etc/sesame/mail-templates',
      readOnly: true,
    });
    expect(names(podOf('gateway').volumes)).not.toContain('mail-templates');
    expect(names(jobPod().volumes)).toEqual(['tmp', 'ca-bundle']);
    expect(names(jobPod().containers[0].volumeMounts)).toEqual(['tmp', 'ca-bundle']);
  });

  it("runs app's init containers then a component's, and the sidecars after the Sesame container; none in the Job", () => {
    expect(names(podOf('identity').initContainers)).toEqual(['wait-for-dns', 'check-templates']);
    expect(names(podOf('webhooks').initContainers)).toEqual(['wait-for-dns']);
    expect(names(podOf('gateway').containers)).toEqual(['gateway', 'log-shipper', 'envoy']);
    expect(names(podOf('docs').containers)).toEqual(['docs', 'log-shipper']);
    expect(names(jobPod().containers)).toEqual(['first-api-key']);
    expect(jobPod().initContainers).toBeUndefined();
    const plain = render([ciValues('default')]);
    expect(named(plain, 'Deployment', 'sesame-gateway').spec.template.spec.initContainers).toBeUndefined();
    expect(named(plain, 'Deployment', 'sesame-gateway').spec.template.spec.containers).toHaveLength(1);
  });

  it("sets a component's priorityClassName, else app's; none by default", () => {
    expect(podOf('gateway').priorityClassName).toBe('sesame-critical');
    for (const name of components.filter((c) => c !== 'gateway'))
      expect([name, podOf(name).priorityClassName]).toEqual([name, 'sesame-standard']);
    expect(jobPod().priorityClassName).toBe('sesame-standard');
    expect(
      named(render([ciValues('default')]), 'Deployment', 'sesame-identity').spec.template.spec.priorityClassName,
    ).toBeUndefined();
  });

  it("spreads a component by its own constraints, else app's, selecting the component's pods when no labelSelector is given", () => {
    expect(podOf('gateway').topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'gateway', tier: 'edge' } },
      },
    ]);
    for (const name of components.filter((c) => c !== 'gateway')) {
      const deployment = named(objects, 'Deployment', `sesame-${name}`);
      expect(deployment.spec.template.spec.topologySpreadConstraints).toEqual([
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: deployment.spec.selector,
        },
      ]);
    }
  });

  it('pins images by digest (repo@sha256:...), whatever the tags; a component without one keeps its tag', () => {
    const digest = (hex: string) => `sha256:${hex.repeat(64 / hex.length)}`;
    expect(mainOf('gateway').image).toBe(`sesame-gateway@${digest('0123456789abcdef')}`);
    expect(mainOf('docs').image).toBe(`sesame-docs@${digest('fedcba9876543210')}`);
    expect(mainOf('identity').image).toBe('sesame-identity:0.1.0');
    const container = (kind: string, name: string) => named(objects, kind, name).spec.template.spec.containers[0];
    expect(container('StatefulSet', 'sesame-nats').image).toBe(`nats@${digest('1')}`);
    expect(container('StatefulSet', 'sesame-eventstoredb').image).toBe(`eventstore/eventstore@${digest('2')}`);
    expect(container('StatefulSet', 'sesame-mongodb').image).toBe(`mongo@${digest('3')}`);
    const tagged = render(
      [ciValues('extensions')],
      ['image.tag=9.9.9', 'gateway.image.tag=9.9.9', 'authMethods.image.digest=' + digest('a')],
    );
    expect(named(tagged, 'Deployment', 'sesame-gateway').spec.template.spec.containers[0].image).toBe(mainOf('gateway').image);
    expect(named(tagged, 'Deployment', 'sesame-identity').spec.template.spec.containers[0].image).toBe('sesame-identity:9.9.9');
    expect(named(tagged, 'Job', 'sesame-first-api-key').spec.template.spec.containers[0].image).toBe(
      `sesame-auth-methods@${digest('a')}`,
    );
    expect(named(tagged, 'Pod', 'sesame-test-gateway-ready').spec.containers[0].image).toBe(mainOf('gateway').image);
  });

  it('routes the API and the docs through Gateway API HTTPRoutes only when enabled, to their Services', () => {
    expect(ofKind(render([ciValues('default')]), 'HTTPRoute')).toEqual([]);
    expect(ofKind(render([ciValues('full')]), 'HTTPRoute')).toEqual([]);
    const route = named(objects, 'HTTPRoute', 'sesame-gateway');
    expect(route.metadata.labels).toMatchObject({ 'app.kubernetes.io/component': 'gateway', gateway: 'public' });
    expect(route.metadata.annotations).toEqual({ 'example.com/owner': 'identity-team' });
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'public', namespace: 'gateway-system', sectionName: 'https' }],
      hostnames: ['auth.example.com'],
      rules: [
        {
          backendRefs: [{ name: 'sesame-gateway', port: named(objects, 'Service', 'sesame-gateway').spec.ports[0].port }],
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          filters: [
            {
              type: 'ResponseHeaderModifier',
              responseHeaderModifier: { set: [{ name: 'Strict-Transport-Security', value: 'max-age=31536000' }] },
            },
          ],
        },
      ],
    });
    expect(named(objects, 'HTTPRoute', 'sesame-docs').spec.rules[0].backendRefs).toEqual([{ name: 'sesame-docs', port: 8000 }]);
    expect(named(objects, 'ConfigMap', 'sesame-env').data).toMatchObject({
      SESAME_PUBLIC_URL: 'https://auth.example.com',
      SESAME_DOCS_URL: 'https://docs.example.com',
    });
    const noDocs = render([ciValues('extensions')], ['docs.enabled=false']);
    expect(ofKind(noDocs, 'HTTPRoute').map((r) => r.metadata.name)).toEqual(['sesame-gateway']);
  });

  it('refuses an HTTPRoute without the Gateway it attaches to', () => {
    expect(() => render([ciValues('default')], ['gateway.httpRoute.enabled=true'])).toThrow(
      /gateway\.httpRoute\.enabled needs gateway\.httpRoute\.parentRefs: the Gateway the route attaches to/,
    );
  });

  it('autoscales on custom metrics alone, with a scaling behavior, and refuses an autoscaler without any metric', () => {
    const hpa = named(objects, 'HorizontalPodAutoscaler', 'sesame-gateway').spec;
    expect(hpa.metrics).toEqual([
      {
        type: 'Pods',
        pods: {
          metric: { name: 'sesame_http_requests_per_second' },
          target: { type: 'AverageValue', averageValue: '200' },
        },
      },
    ]);
    expect(hpa.behavior).toEqual({
      scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    });
    expect(named(objects, 'Deployment', 'sesame-gateway').spec.replicas).toBeUndefined();
    const cpuAndMemory = named(objects, 'HorizontalPodAutoscaler', 'sesame-auth-methods').spec;
    expect(cpuAndMemory.metrics.map((m: any) => [m.resource.name, m.resource.target.averageUtilization])).toEqual([
      ['cpu', 60],
      ['memory', 80],
    ]);
    expect(cpuAndMemory.behavior).toBeUndefined();
    expect(() =>
      render([ciValues('default')], ['gateway.autoscaling.enabled=true', 'gateway.autoscaling.targetCPUUtilizationPercentage=0']),
    ).toThrow(
      /gateway\.autoscaling\.enabled needs a metric: targetCPUUtilizationPercentage, targetMemoryUtilizationPercentage or metrics/,
    );
  });

  it('gives the Sesame processes the outbound proxy, keeping the cluster off it; not the docs, and nothing by default', () => {
    const proxyEnv = (container: any) =>
      (container.env as { name: string; value?: string }[]).filter((v) => /^(HTTPS?|NO)_PROXY$/.test(v.name));
    for (const name of processes)
      expect([name, proxyEnv(mainOf(name))]).toEqual([
        name,
        [
          { name: 'HTTPS_PROXY', value: 'http://proxy.corp.example:3128' },
          { name: 'HTTP_PROXY', value: 'http://proxy.corp.example:3128' },
          { name: 'NO_PROXY', value: '.corp.example,10.0.0.0,localhost,127.0.0.1,::1,.svc,.cluster.local' },
        ],
      ]);
    expect(proxyEnv(mainOf('docs'))).toEqual([]);
    expect(
      proxyEnv(named(render([ciValues('default')]), 'Deployment', 'sesame-webhooks').spec.template.spec.containers[0]),
    ).toEqual([]);
    const noProxyOnly = render([ciValues('default')], ['proxy.noProxy=hooks.example.com']);
    expect(proxyEnv(named(noProxyOnly, 'Deployment', 'sesame-webhooks').spec.template.spec.containers[0])).toEqual([
      { name: 'NO_PROXY', value: 'hooks.example.com,localhost,127.0.0.1,::1,.svc,.cluster.local' },
    ]);
  });

  it('names the routes and the proxy in the install notes', () => {
    const result = helm(['install', 'sesame', chartDir, '-n', 'auth', '--dry-run=client', '-f', ciValues('extensions')]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('https://auth.example.com   (OpenAPI document at /openapi.json; HTTPRoute sesame-gateway)');
    expect(result.stdout).toContain('Documentation: https://docs.example.com');
    expect(result.stdout).toContain('goes through the proxy\nhttp://proxy.corp.example:3128; webhook targets are still checked');
    expect(result.stdout).toContain('into the Secret\n   sesame-first-api-key (its log names the client_id, never the secret)');
  });
});
