import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * Hosts of a test's own: one network namespace per host (`ip netns`, iproute2, as root), each joined
 * to a bridge of the run by a veth pair, on a /24 of 10.231.0.0/16 no interface of this machine
 * uses. The bridge holds `.1`, the hosts `.11`, `.12`...: processes of the machine reach them
 * there. Names carry a random run id so that parallel runs do not collide; `remove` deletes
 * everything, and so does the process's exit if a test never got to it.
 */
export class NetworkNamespaces {
  private constructor(
    readonly runId: string,
    readonly subnet: string,
    readonly hosts: number,
  ) {}

  /** Why this machine cannot create namespaces here (not root, no iproute2...), or undefined when it can. */
  static unsupported(): string | undefined {
    if (process.getuid?.() !== 0) return 'network namespaces need root (ip netns add)';
    const probe = `sesame-probe-${randomBytes(3).toString('hex')}`;
    const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
    if (added.error) return `iproute2 missing: ${added.error.message}`;
    if (added.status !== 0) return `ip netns add failed: ${added.stderr.trim()}`;
    spawnSync('ip', ['netns', 'delete', probe]);
    return undefined;
  }

  static create(hosts: number): NetworkNamespaces {
    const runId = randomBytes(3).toString('hex');
    const namespaces = new NetworkNamespaces(runId, freeSubnet(), hosts);
    live.add(namespaces);
    try {
      namespaces.build();
    } catch (error) {
      namespaces.remove();
      throw error;
    }
    return namespaces;
  }

  /** The namespace of host `index` (0-based). */
  namespace(index: number): string {
    return `sesame-${this.runId}-n${index + 1}`;
  }

  /** The address of host `index` (0-based). */
  address(index: number): string {
    return `${this.subnet}.${11 + index}`;
  }

  private get bridge(): string {
    return `sb${this.runId}`;
  }

  /** The machine's end of host `index`'s veth pair (interface names: at most 15 characters). */
  private hostEnd(index: number): string {
    return `sv${this.runId}h${index + 1}`;
  }

  private build(): void {
    ip('link', 'add', this.bridge, 'type', 'bridge');
    ip('addr', 'add', `${this.subnet}.1/24`, 'dev', this.bridge);
    ip('link', 'set', this.bridge, 'up');
    for (let index = 0; index < this.hosts; index++) {
      const namespace = this.namespace(index);
      const inside = `sv${this.runId}n${index + 1}`;
      ip('netns', 'add', namespace);
      ip('link', 'add', this.hostEnd(index), 'type', 'veth', 'peer', 'name', inside);
      ip('link', 'set', inside, 'netns', namespace);
      ip('link', 'set', this.hostEnd(index), 'master', this.bridge, 'up');
      ip('-n', namespace, 'addr', 'add', `${this.address(index)}/24`, 'dev', inside);
      ip('-n', namespace, 'link', 'set', inside, 'up');
      ip('-n', namespace, 'link', 'set', 'lo', 'up');
    }
  }

  /** Cuts host `index` off the network (its veth down): its connections stall, nothing is reset. */
  partition(index: number): void {
    ip('link', 'set', this.hostEnd(index), 'down');
  }

  heal(index: number): void {
    ip('link', 'set', this.hostEnd(index), 'up');
  }

  /** The command line running `command` inside host `index`'s namespace. */
  exec(index: number, command: string[]): string[] {
    return ['ip', 'netns', 'exec', this.namespace(index), ...command];
  }

  /** Deletes the namespaces (their veth pairs go with them) and the bridge; quiet about what is already gone. */
  remove(): void {
    for (let index = 0; index < this.hosts; index++) spawnSync('ip', ['netns', 'delete', this.namespace(index)]);
    spawnSync('ip', ['link', 'delete', this.bridge]);
    live.delete(this);
  }
}

const live = new Set<NetworkNamespaces>();
process.once('exit', () => {
  for (const namespaces of live) namespaces.remove();
});

function ip(...args: string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${result.stderr.trim()}`);
}

/** A 10.231.<n>.0/24 no interface of the machine has an address in (as `10.231.<n>`). */
function freeSubnet(): string {
  const used = spawnSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' }).stdout;
  for (let attempt = 0; attempt < 50; attempt++) {
    const subnet = `10.231.${randomBytes(1)[0]}`;
    if (!used.includes(` ${subnet}.`)) return subnet;
  }
  throw new Error('no free 10.231.x.0/24 subnet');
}
