/**
 * The Node.js the project runs on (deploy/node-runtime.mjs): the release it pins is the one of the
 * images, of hosted CI and of `engines`, and when it started the tests (`npm test`, `node
 * test/run-tiers.mjs` on an older Node), they and every child run on that release.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './support/chart';
import { parseDockerfile } from './support/dockerfile';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const pinned = /version: '(\d+\.\d+\.\d+)'/.exec(read('deploy/node-runtime.mjs'))?.[1] ?? 'none';
const pinnedMajor = Number(pinned.split('.')[0]);
const startedBy = process.env.SESAME_NODE_RUNTIME;

describe('Node.js runtime', () => {
  it('pins a Node.js 24 LTS release, the one of the images, of hosted CI and of engines', () => {
    expect(pinnedMajor).toBe(24);
    const nodeImages = parseDockerfile(read('deploy/Dockerfile')).baseImages.filter((image) => image.startsWith('node:'));
    expect(nodeImages.length).toBeGreaterThan(0);
    for (const image of nodeImages) expect(image).toBe(`node:${pinned}-bookworm-slim`);
    expect((parse(read('.github/workflows/ci.yml')) as { env: { NODE_VERSION: string } }).env.NODE_VERSION).toBe(pinned);
    expect((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node).toBe(`>=${pinnedMajor}`);
  });

  // Skipped when jest was started some other way (`npx jest` on whatever Node is on PATH).
  (startedBy ? it : it.skip)('runs the tests and their children on the pinned release when node-runtime.mjs started them', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
    expect([process.versions.node, process.execPath]).toEqual([pinned, startedBy]);
    // Children: the Sesame processes of the system tests (process.execPath), and `node` called by name.
    const byName = spawnSync('node', ['-p', 'process.versions.node + " " + process.execPath'], { encoding: 'utf8' });
    expect(byName.stdout.trim()).toBe(`${pinned} ${startedBy}`);
  });
});
