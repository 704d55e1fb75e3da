import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { PasswordLists } from './domain/password-policy';

const dataDir = join(__dirname, '../../../data');

const linesOf = (text: string) =>
  new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#')),
  );

let loaded: PasswordLists | undefined;

/**
 * The lists shipped in `services/auth-methods/data` (built by `scripts/build-password-lists.mjs`
 * from a public breach corpus): the 10,000 most common passwords and 100,000 more seen in breaches.
 */
export function passwordLists(): PasswordLists {
  loaded ??= {
    common: linesOf(readFileSync(join(dataDir, 'common-passwords.txt'), 'utf8')),
    breached: linesOf(gunzipSync(readFileSync(join(dataDir, 'breached-passwords.txt.gz'))).toString('utf8')),
  };
  return loaded;
}
