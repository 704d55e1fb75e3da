// Prepares the browser tests: Debian's chromium (installed with apt-get when missing; never a
// downloaded browser build) and a built site in docs/public (built when missing).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`${chromium} is missing: installing Debian's chromium package`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (command) => {
    const [file, ...args] = [...asRoot, ...command];
    execFileSync(file, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium', 'fonts-dejavu-core']);
}

const docsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(docsDir, 'public', 'index.html'))) {
  console.log('docs/public has no built site: building it');
  execFileSync('npm', ['run', 'build'], { cwd: docsDir, stdio: 'inherit' });
}
