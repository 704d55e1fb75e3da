import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Sesame } from '@sesame/node';
import { LocalDnsServer } from '../../test/support/dns-server';
import { System } from '../../test/support/system';
import { loadSampleFiles, samplesDir } from '../src/samples/load';
import type { OpenApiDocument } from '../src/samples/openapi';
import { runSamples } from '../src/samples/runner';
import { executeSnippet } from '../src/samples/snippets';
import type { Sample } from '../src/samples/types';

type SnippetRun = (sesame: Sesame, variables: Record<string, string>) => Promise<unknown>;

/** The functions of the SDK snippets (`docs/samples/sdk/<id>.ts`), by sample id. */
async function loadSnippetRuns(samples: Sample[]): Promise<Map<string, SnippetRun>> {
  const runs = new Map<string, SnippetRun>();
  for (const sample of samples) {
    if (sample.sdk === undefined) continue;
    const module = (await import(join(samplesDir, 'sdk', `${sample.id}.ts`))) as { default: SnippetRun };
    runs.set(sample.id, module.default);
  }
  return runs;
}

/**
 * Every request and response shown in the guides, sent to the real system (all services and the
 * gateway as processes): enabled samples must answer the documented status and body shape.
 */
describe('documentation samples against a running Sesame', () => {
  let system: System;
  // Domain verification reads TXT records from this server, which holds none: a check answers
  // "no record" whatever the network of the machine running the samples.
  let dns: LocalDnsServer;
  beforeAll(async () => {
    dns = await LocalDnsServer.start();
    system = await System.start({ processEnv: { identity: { SESAME_DNS_SERVERS: dns.server } } });
  });
  afterAll(async () => {
    await system?.stop();
    await dns?.stop();
  });

  it('answer as documented', async () => {
    const document = JSON.parse(readFileSync(resolve(__dirname, '../../contracts/openapi.json'), 'utf8')) as OpenApiDocument;
    const results = await runSamples({ baseUrl: system.baseUrl, apiKey: system.apiKey, document, files: loadSampleFiles() });
    const failures = results
      .filter((result) => result.outcome === 'failed')
      .map((result) => `${result.file}/${result.id} (${result.operation}):\n    ${result.problems.join('\n    ')}`);
    const passed = results.filter((result) => result.outcome === 'passed').length;
    const pending = results.filter((result) => result.outcome === 'pending').length;
    console.log(
      `Documentation samples: ${passed} passed, ${failures.length} failed, ${pending} pending (operations not in the API yet)`,
    );
    expect(failures).toEqual([]);
    expect(passed).toBeGreaterThanOrEqual(10);
  });

  it('answer as documented through their Node SDK snippets', async () => {
    const document = JSON.parse(readFileSync(resolve(__dirname, '../../contracts/openapi.json'), 'utf8')) as OpenApiDocument;
    const files = loadSampleFiles();
    const runs = await loadSnippetRuns(files.flatMap((file) => file.samples));
    const sesame = new Sesame({ baseUrl: system.baseUrl, ...system.apiKey });
    // The samples without a snippet (token requests, form bodies...) are sent as HTTP, for their captures.
    const results = await runSamples({
      baseUrl: system.baseUrl,
      apiKey: system.apiKey,
      document,
      files,
      execute: (sample, variables) => {
        const run = runs.get(sample.id);
        return run && executeSnippet(run, sesame, variables);
      },
    });
    const failures = results
      .filter((result) => result.outcome !== 'passed' && runs.has(result.id))
      .map(
        (result) => `${result.file}/${result.id} (${result.operation}): ${result.outcome}\n    ${result.problems.join('\n    ')}`,
      );
    const bySdk = results.filter((result) => result.outcome === 'passed' && result.via === 'execute').map((result) => result.id);
    console.log(`Documentation samples through the Node SDK: ${bySdk.length} passed, ${failures.length} not passed`);
    expect(failures).toEqual([]);
    expect(bySdk.sort()).toEqual([...runs.keys()].sort());
  });
});
