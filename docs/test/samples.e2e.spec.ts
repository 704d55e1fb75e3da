import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { System } from '../../test/support/system';
import { loadSampleFiles } from '../src/samples/load';
import type { OpenApiDocument } from '../src/samples/openapi';
import { runSamples } from '../src/samples/runner';

/**
 * Every request and response shown in the guides, sent to the real system (all services and the
 * gateway as processes): enabled samples must answer the documented status and body shape.
 */
describe('documentation samples against a running Sesame', () => {
  let system: System;
  beforeAll(async () => {
    system = await System.start();
  });
  afterAll(async () => {
    await system?.stop();
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
});
