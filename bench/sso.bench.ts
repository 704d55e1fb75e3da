import { validateSamlResponse } from '../services/auth-methods/src/methods/sso-saml/saml/response-validator';
import { schemaValidatorKind, validateSamlSchema } from '../services/auth-methods/src/methods/sso-saml/saml/schema-validator';
import { createOrganization } from '../test/support/identity-fixtures';
import { postToAcs } from '../test/support/saml-browser';
import { TestIdp, verifyAssertionSignature } from '../test/support/saml-idp';
import { percentile, report } from './lib/report';
import type { Figure } from './lib/report';
import { startBenchSystem } from './lib/system';
import { timed } from './lib/timing';
import type { Bound } from './lib/timing';

/**
 * SAML ACS validation throughput, in process: our full validation of a signed response (XML
 * parse without DTD, structure, signature against the connection certificates, conditions)
 * next to raw xml-crypto verification of the same response's signature, plus the SAML schema
 * validation (xmllint compiled to WebAssembly, in a worker thread, so it does not block the loop).
 * Then, through the real system: whether a flood of valid ACS posts (validated on the
 * auth-methods event loop) delays the other requests auth-methods answers.
 */
const iterations = Number(process.env.BENCH_SAML_ITERATIONS ?? 1_000);
const floodPosts = Number(process.env.BENCH_ACS_FLOOD ?? 120);
const floodConcurrency = Number(process.env.BENCH_ACS_CONCURRENCY ?? 8);
const probes = Number(process.env.BENCH_PROBES ?? 300);
const callback = 'https://app.bench.example.com/callback';
const sp = {
  entity_id: 'https://sesame.bench/sso/saml/acme_sandbox/metadata',
  acs_url: 'https://sesame.bench/sso/saml/acme_sandbox/acs',
};

function measureSync(count: number, task: () => unknown) {
  const latencies: number[] = [];
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const begin = performance.now();
    task();
    latencies.push(performance.now() - begin);
  }
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (count * 1_000) / (performance.now() - started),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** A system with an organization whose SAML connection (IdP-initiated allowed) trusts a samlify IdP. */
async function samlSystem() {
  const system = await startBenchSystem();
  const org = await createOrganization(system, 'Acme Bench SAML', { allowed_email_domains: ['acme-bench.test'] });
  await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
  const idp = await TestIdp.create();
  const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
    body: { provider_type: 'okta', metadata: idp.metadata(), allow_idp_initiated: true },
  });
  if (created.status !== 201) throw new Error(`SSO connection: ${created.status} ${JSON.stringify(created.body)}`);
  const { entity_id, acs_url } = created.body.saml_config as { entity_id: string; acs_url: string };
  return { system, org, idp, sp: { entity_id, acs_url } };
}

/** Runs `probe` one at a time while `floodConcurrency` posts run until `bound`: both timings. */
async function whileFlooding(probe: () => Promise<unknown>, post: (index: number) => Promise<unknown>, bound: Bound) {
  let flooding = true;
  const flood = timed(bound, floodConcurrency, post).finally(() => (flooding = false));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const probes = await timed({ while: () => flooding }, 1, probe);
  return { probes, posts: await flood };
}

const probeName = 'GET sso-connection (auth-methods)';
const floodFigures = (flood: string, { probes, posts }: Awaited<ReturnType<typeof whileFlooding>>): Figure[] => [
  { name: `${probeName} during ${flood} p50`, value: probes.p50, unit: 'ms' },
  { name: `${probeName} during ${flood} p99`, value: probes.p99, unit: 'ms' },
  { name: `${flood}: ACS posts (${floodConcurrency} in flight)`, value: posts.perSecond, unit: 'posts/s' },
  { name: `${flood}: ACS post latency p50`, value: posts.p50, unit: 'ms' },
  { name: `${flood}: ACS post latency p99`, value: posts.p99, unit: 'ms' },
];

/**
 * p50/p99 of `GET /api/v2/org/{org}/sso-connection` (gateway, then auth-methods over NATS), one at
 * a time: alone; while `floodConcurrency` valid IdP-initiated ACS posts are in flight (each
 * response signed beforehand, so the bench process does not sign during the flood; each post also
 * runs the schema validation off the loop: xmllint child process, or the WebAssembly worker when
 * xmllint is not installed, which then bounds the ACS rate); and while posts of a response refused
 * just after its signature verifies (wrong Destination) are in flight: the signature work on the
 * service's event loop without the schema validation.
 */
async function eventLoopFigures(): Promise<{ figures: Figure[]; notes: Record<string, unknown> }> {
  const { system, org, idp, sp } = await samlSystem();
  try {
    const token = await system.token();
    const probe = async () => {
      const response = await fetch(`${system.baseUrl}/api/v2/org/${org}/sso-connection`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET sso-connection answered ${response.status}`);
    };
    // 20 users, signed in first, then refreshed: consecutive posts (those in flight together) name different users.
    const signed = (count: number, tags?: Record<string, string>) =>
      Array.from({ length: count }, (_, index) =>
        idp.loginResponse(sp, { nameId: `user${index % 20}@acme-bench.test`, attributes: { firstName: 'Ada' }, tags }),
      );
    const acs = (responses: string[], status: number) => async (index: number) => {
      const hop = await postToAcs(sp.acs_url, responses[index % responses.length] as string);
      if (hop.status !== status) throw new Error(`ACS answered ${hop.status}: ${hop.body}`);
    };
    await timed({ count: 20 }, 4, acs(signed(20), 302));
    await timed({ count: 50 }, 1, probe);
    const valid = signed(floodPosts);
    const refused = signed(1, { Destination: `${sp.acs_url}/elsewhere` });
    const alone = await timed({ count: probes }, 1, probe);
    const validFlood = await whileFlooding(probe, acs(valid, 302), { count: floodPosts });
    const refusedFlood = await whileFlooding(probe, acs(refused, 400), { seconds: floodPosts / 10 });
    return {
      figures: [
        { name: `${probeName} alone p50`, value: alone.p50, unit: 'ms' },
        { name: `${probeName} alone p99`, value: alone.p99, unit: 'ms' },
        ...floodFigures('valid ACS flood', validFlood),
        ...floodFigures('signature-only ACS flood', refusedFlood),
      ],
      notes: { floodPosts, floodConcurrency, probesAlone: probes, signatureOnlyFloodSeconds: floodPosts / 10 },
    };
  } finally {
    await system.stop();
  }
}

async function main() {
  const idp = await TestIdp.create('https://idp.bench.example.com/saml');
  const xml = idp.signedResponseXml(sp, {
    nameId: 'ada@acme.com',
    inResponseTo: '_bench',
    attributes: { email: 'ada@acme.com', firstName: 'Ada', lastName: 'Lovelace', groups: ['engineering', 'admins'] },
  });
  const expectations = {
    idpEntityId: idp.entityId,
    certificates: [idp.key.certificatePem],
    spEntityId: sp.entity_id,
    acsUrl: sp.acs_url,
    now: new Date(),
    skewMs: 120_000,
  };
  if (!validateSamlResponse(xml, expectations).ok || !verifyAssertionSignature(xml, idp.key.certificatePem))
    throw new Error('the benchmark response does not validate');
  for (let index = 0; index < 50; index++) validateSamlResponse(xml, expectations);

  const ours = measureSync(iterations, () => validateSamlResponse(xml, expectations));
  const raw = measureSync(iterations, () => verifyAssertionSignature(xml, idp.key.certificatePem));
  const schemaCount = Math.max(20, Math.floor(iterations / 10));
  await validateSamlSchema(xml);
  const schema = (await timed({ count: schemaCount }, 4, () => validateSamlSchema(xml))).perSecond;
  const loop = await eventLoopFigures();
  report(
    'sso',
    [
      {
        name: 'ACS responses validated (full checks, 1 thread)',
        value: ours.perSecond,
        unit: 'responses/s',
        baseline: { name: 'raw xml-crypto verification of the same response', value: raw.perSecond, unit: 'verifications/s' },
      },
      { name: 'ACS validation latency p50', value: ours.p50, unit: 'ms' },
      { name: 'ACS validation latency p99', value: ours.p99, unit: 'ms' },
      { name: 'raw xml-crypto verification latency p50', value: raw.p50, unit: 'ms' },
      { name: `SAML schema validations (${schemaValidatorKind}, 4 in flight)`, value: schema, unit: 'validations/s' },
      ...loop.figures,
    ],
    {
      iterations,
      schemaValidations: schemaCount,
      responseBytes: xml.length,
      signature: 'assertion, RSA-SHA256, 2048-bit key',
      schemaValidator: schemaValidatorKind,
      ...loop.notes,
    },
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
