import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { helmBinary } from './helm-binary';

export const repoRoot = resolve(__dirname, '../../..');
export const chartDir = join(repoRoot, 'helm/sesame');
export const ciValues = (name: string) => join(chartDir, 'ci', `${name}-values.yaml`);

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  [key: string]: any;
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmResult {
  const result = spawnSync(helmBinary(), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const rendered = new Map<string, string>();

/** `helm template` of the chart as release `sesame` in namespace `auth`; throws with helm's message on failure. */
export function renderText(valuesFiles: string[], set: string[] = [], extra: string[] = []): string {
  const key = JSON.stringify([valuesFiles, set, extra]);
  const cached = rendered.get(key);
  if (cached !== undefined) return cached;
  const args = ['template', 'sesame', chartDir, '--namespace', 'auth', ...extra];
  for (const file of valuesFiles) args.push('-f', file);
  for (const value of set) args.push('--set', value);
  const result = helm(args);
  if (result.status !== 0) throw new Error(result.stderr.trim());
  rendered.set(key, result.stdout);
  return result.stdout;
}

/** Rendered objects, parsed strictly (duplicate keys and YAML errors fail). */
export function render(valuesFiles: string[], set: string[] = [], extra: string[] = []): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const document of parseAllDocuments(renderText(valuesFiles, set, extra), { uniqueKeys: true })) {
    if (document.errors.length > 0) throw new Error(document.errors.map((e) => e.message).join('\n'));
    const value = document.toJS();
    if (value) objects.push(value as K8sObject);
  }
  return objects;
}

export const ofKind = (objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind);

export function named(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

/** Validates objects against the Kubernetes API schemas (kubernetes-models); returns the failures. */
export function schemaErrors(objects: K8sObject[]): { kind: string; name: string; error: string }[] {
  const result = spawnSync(process.execPath, [join(__dirname, 'validate-manifests.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return (JSON.parse(result.stdout) as { kind: string; name: string; error: string | null }[]).filter(
    (entry): entry is { kind: string; name: string; error: string } => entry.error !== null,
  );
}

type Labels = Record<string, string>;
const matches = (selector: { matchLabels?: Labels } | undefined, labels: Labels) =>
  Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);

const ofType = (policies: K8sObject[], type: 'Ingress' | 'Egress') =>
  policies.filter((policy) => (policy.spec.policyTypes ?? ['Ingress']).includes(type));

/**
 * Whether the NetworkPolicies let a source reach a pod on a port: the pod is isolated when an ingress
 * policy selects it, and then reachable only through an ingress rule of a policy selecting it.
 */
export function allowed(
  policies: K8sObject[],
  target: { labels: Labels; port: number | string },
  source: { labels: Labels; sameNamespace: boolean; namespaceLabels?: Labels },
): boolean {
  const selecting = ofType(policies, 'Ingress').filter((policy) => matches(policy.spec.podSelector, target.labels));
  if (selecting.length === 0) return true;
  return selecting.some((policy) =>
    (policy.spec.ingress ?? []).some((rule: any) => {
      const portOk = !rule.ports || rule.ports.some((p: any) => p.port === target.port);
      const fromOk =
        !rule.from ||
        rule.from.some((peer: any) => {
          if (peer.namespaceSelector) return matches(peer.namespaceSelector, source.namespaceLabels ?? {});
          return source.sameNamespace && matches(peer.podSelector, source.labels);
        });
      return portOk && fromOk;
    }),
  );
}

/**
 * Whether the NetworkPolicies let a pod send to a peer of its namespace on a port: the pod is isolated
 * for egress when an egress policy selects it, and may then send only through an egress rule.
 */
export function egressAllowed(
  policies: K8sObject[],
  source: { labels: Labels },
  target: { labels: Labels; port: number },
): boolean {
  const selecting = ofType(policies, 'Egress').filter((policy) => matches(policy.spec.podSelector, source.labels));
  if (selecting.length === 0) return true;
  return selecting.some((policy) =>
    (policy.spec.egress ?? []).some((rule: any) => {
      const portOk = !rule.ports || rule.ports.some((p: any) => p.port === target.port);
      const toOk = !rule.to || rule.to.some((peer: any) => peer.podSelector && matches(peer.podSelector, target.labels));
      return portOk && toOk;
    }),
  );
}
