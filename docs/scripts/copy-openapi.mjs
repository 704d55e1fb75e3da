// Generates the OpenAPI document (3.1, and its 3.0 rendition) from `contracts` and copies both into the site's static files.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(docsDir, '..');
const source = join(root, 'contracts', 'openapi.json');
const files = ['openapi.json', 'openapi-3.0.json'];

// Always regenerate: `tsc -b` is incremental, and a stale copy would document an old API.
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'contracts'], {
  cwd: root,
  stdio: 'inherit',
});
execFileSync(process.execPath, [join(root, 'contracts', 'dist', 'openapi', 'write-openapi.js'), source], {
  cwd: root,
  stdio: 'inherit',
});
mkdirSync(join(docsDir, 'static'), { recursive: true });
for (const file of files) {
  copyFileSync(join(root, 'contracts', file), join(docsDir, 'static', file));
  console.log(`Copied contracts/${file} to docs/static/${file}`);
}
