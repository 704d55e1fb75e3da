import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const script = resolve(__dirname, '../scripts/generate-types.mjs');
const document = resolve(__dirname, '../../../contracts/openapi.json');
const check = (documentPath: string) =>
  spawnSync(process.execPath, [script, '--check', '--document', documentPath], { encoding: 'utf8' });

describe('the SDK types generated from the OpenAPI document', () => {
  it('are what openapi-typescript gives for contracts/openapi.json (run `npm run generate -w sdk/node` if not)', () => {
    const result = check(document);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fail the check when the document changes', () => {
    const changed = JSON.parse(readFileSync(document, 'utf8'));
    changed.paths['/api/v2/drift'] = { get: { operationId: 'drift', responses: { 200: { description: 'drift' } } } };
    const path = join(mkdtempSync(join(tmpdir(), 'sesame-sdk-')), 'openapi.json');
    writeFileSync(path, JSON.stringify(changed));
    const result = check(path);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('differs from the types of');
  });
});
