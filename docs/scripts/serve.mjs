// Serves the built documentation site: `node docs/scripts/serve.mjs [--port 8000] [--host 127.0.0.1]`.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import server from './static-server.cjs';

const { startDocsServer } = server;

const { values } = parseArgs({
  options: { port: { type: 'string', default: process.env.DOCS_PORT ?? '8000' }, host: { type: 'string', default: '127.0.0.1' } },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
if (!existsSync(join(root, 'index.html'))) {
  console.error(`No built site in ${root}: run "npm run docs:build" first.`);
  process.exit(1);
}
const { url } = await startDocsServer({ root, port: Number(values.port), host: values.host });
console.log(`Documentation: ${url}/ (French: ${url}/fr/)`);
