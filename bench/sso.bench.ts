import { validateSamlResponse } from '../services/auth-methods/src/sso-saml/saml/response-validator';
import { schemaValidatorKind, validateSamlSchema } from '../services/auth-methods/src/sso-saml/saml/schema-validator';
import { TestIdp, verifyAssertionSignature } from '../test/support/saml-idp';
import { percentile, report } from './lib/report';

/**
 * SAML ACS validation throughput, in process: our full validation of a signed response (XML
 * parse without DTD, structure, signature against the connection certificates, conditions)
 * next to raw xml-crypto verification of the same response's signature, plus the SAML schema
 * validation (xmllint compiled to WebAssembly, in a worker thread, so it does not block the loop).
 */
const iterations = Number(process.env.BENCH_SAML_ITERATIONS ?? 1_000);
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

async function measureAsync(count: number, concurrency: number, task: () => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) await task();
    }),
  );
  return (count * 1_000) / (performance.now() - started);
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
  const schema = await measureAsync(schemaCount, 4, () => validateSamlSchema(xml));
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
    ],
    {
      iterations,
      schemaValidations: schemaCount,
      responseBytes: xml.length,
      signature: 'assertion, RSA-SHA256, 2048-bit key',
      schemaValidator: schemaValidatorKind,
    },
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
