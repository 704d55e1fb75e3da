// The message templates (services/platform/src/messages/templates) are read at run time beside
// the compiled code: `tsc -b` only emits JavaScript, so the build copies them into dist.
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const platform = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(platform, 'src', 'messages', 'templates');
const to = join(platform, 'dist', 'messages', 'templates');
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
console.log(`message templates copied to ${to}`);
