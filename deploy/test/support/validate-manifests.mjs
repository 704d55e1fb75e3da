#!/usr/bin/env node
// Validates Kubernetes objects against the API schemas shipped by `kubernetes-models` (ESM-only, so
// it runs here rather than inside jest). Reads a JSON array of objects on stdin, prints a JSON
// array of { kind, name, error } (error null when valid); exits 0.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const objects = JSON.parse(Buffer.concat(chunks).toString('utf8'));

async function modelOf(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const crdModels = {
    'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
    'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
  };
  const specifier = crdModels[group]
    ? `${crdModels[group]}/${group}/${version}`
    : `kubernetes-models/${group ? `${group}/` : ''}${version}`;
  const module = await import(specifier).catch(() => ({}));
  return module[kind];
}

const results = [];
for (const object of objects) {
  const name = object?.metadata?.name;
  const Model = await modelOf(object.apiVersion ?? '', object.kind ?? '');
  if (!Model) {
    results.push({ kind: object.kind, name, error: `no schema for ${object.apiVersion} ${object.kind}` });
    continue;
  }
  try {
    new Model(object).validate();
    results.push({ kind: object.kind, name, error: null });
  } catch (error) {
    results.push({ kind: object.kind, name, error: error.message });
  }
}
process.stdout.write(JSON.stringify(results));
