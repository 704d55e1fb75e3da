// Generates the OpenAPI document from `contracts` and copies it into the site's static files.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(docsDir, '..');
const source = join(root, 'contracts', 'openapi.json');
const target = join(docsDir, 'static', 'openapi.json');

// Always regenerate: `tsc -b` is incremental, and a stale copy would document an old API.
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'contracts'], {
  cwd: root,
  stdio: 'inherit',
});
execFileSync(process.execPath, [join(root, 'contracts', 'dist', 'openapi', 'write-openapi.js'), source], {
  cwd: root,
  stdio: 'inherit',
});
mkdirSync(dirname(target), { recursive: true });
copyFileSync(source, target);
console.log(`Copied ${source} to ${target}`);
