import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '@sesame/contracts';
import { System, repoRoot } from '../support/system';
import { OpenApiDocument } from '../support/openapi';
import { rateLimitsOff } from '../support/rate-limits';
import { AuthorizationWorld } from '../support/authorization-world';
import { AuthorizationMatrix } from '../support/authorization-matrix';
import { allCells, failingCell, matrixReport } from '../support/authorization-report';
import { LocalDnsServer } from '../support/dns-server';

/**
 * The authorization matrix, generated from the operation table (`operations` of
 * `@sesame/contracts`): every operation is called (a) without credentials, (b) with the other
 * environment's, (c) with an API key holding every scope but its own, (d) with another
 * organization's identifiers, tokens or codes; each refusal must be exact and change nothing
 * its victim can read. A new operation is covered as soon as it is in the table; one whose
 * request cannot be generated fails the first test, naming what is missing. The summary table
 * and every failing cell are printed and written to `test-results/authorization-matrix.txt`.
 */
describe('Authorization matrix of every operation (all processes, real NATS)', () => {
  let system: System;
  let world: AuthorizationWorld;
  let matrix: AuthorizationMatrix;
  let dns: LocalDnsServer;

  beforeAll(async () => {
    const log = (line: string) => console.log(`authorization matrix: ${line}`);
    // Rate limits are tested elsewhere; a loaded machine gets more time to answer over NATS.
    dns = await LocalDnsServer.start();
    system = await System.start({
      env: { ...rateLimitsOff, SESAME_RPC_TIMEOUT_MS: '30000' },
      processEnv: { identity: { SESAME_DNS_SERVERS: dns.server } },
    });
    const started = Date.now();
    world = await AuthorizationWorld.build(system, dns);
    const slowest = [...world.timings].sort(([, a], [, b]) => b - a).slice(0, 6);
    log(
      `world built in ${((Date.now() - started) / 1000).toFixed(1)} s (slowest: ${slowest.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', ')})`,
    );
    matrix = new AuthorizationMatrix(world, operations, new OpenApiDocument());
    await matrix.run(log);
    const report = matrixReport(operations, matrix.results);
    mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
    writeFileSync(
      join(repoRoot, 'test-results', 'authorization-matrix.txt'),
      `${report}\n\nGuard:\n${matrix.guard().join('\n')}\n\nEvery cell:\n${allCells(matrix.results)}\n`,
    );
    console.log(report);
  }, 1_200_000);
  afterAll(async () => {
    await world?.receiver.stop();
    await system?.stop();
    await dns?.stop();
  });

  it('generates a valid request of every operation, which its owner may make', () => {
    expect(matrix.guard()).toEqual([]);
  });

  it.each(
    operations.map((operation) => [
      `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`,
      operation.operationId,
    ]),
  )('%s: refuses other tenants and missing credentials exactly, and changes nothing', (_name, operationId) => {
    expect(matrix.failuresOf(operationId).map(failingCell)).toEqual([]);
  });
});
