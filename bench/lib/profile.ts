import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

/** What a profile shows: the busiest functions, and the share of samples not idle. */
export interface ProfileSummary {
  busyPercent: number;
  text: string;
}

const inspectorPort = 9229;

/**
 * CPU-profiles the running Node.js process `pid` for `seconds` through its inspector (opened with
 * SIGUSR1 on port 9229, closed afterwards: one process at a time), writes the `.cpuprofile` to
 * bench/results/profiles/<name>.cpuprofile and answers its summary.
 */
export async function profileProcess(pid: number, seconds: number, name: string): Promise<ProfileSummary> {
  process.kill(pid, 'SIGUSR1');
  const targets = await waitForInspector();
  const session = await InspectorSession.open(targets[0]?.webSocketDebuggerUrl as string);
  try {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 500 });
    await session.send('Profiler.start');
    await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
    const { profile } = (await session.send('Profiler.stop')) as { profile: CpuProfile };
    const directory = join(__dirname, '..', 'results', 'profiles');
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, `${name}.cpuprofile`), JSON.stringify(profile));
    return summarize(profile);
  } finally {
    session.close();
  }
}

async function waitForInspector(): Promise<{ webSocketDebuggerUrl?: string }[]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const listed = await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)
      .then((response) => response.json() as Promise<{ webSocketDebuggerUrl?: string }[]>)
      .catch(() => null);
    if (listed?.length) return listed;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no inspector on port ${inspectorPort}`);
}

/** A Chrome DevTools Protocol session over the inspector's WebSocket. */
class InspectorSession {
  private nextId = 0;
  private readonly pending = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (message) => {
      const answer = JSON.parse(String(message.data)) as { id?: number; result?: unknown };
      if (answer.id !== undefined) this.pending.get(answer.id)?.(answer.result);
    });
  }

  static async open(url: string): Promise<InspectorSession> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve);
      socket.addEventListener('error', reject);
    });
    return new InspectorSession(socket);
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Closes the inspector too (`process._debugEnd`), so the next process can open port 9229. */
  close(): void {
    this.socket.send(
      JSON.stringify({ id: ++this.nextId, method: 'Runtime.evaluate', params: { expression: 'process._debugEnd()' } }),
    );
    setTimeout(() => this.socket.close(), 200);
  }
}

const frameName = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|services|gateway|contracts)\//, '$1/')}:${lineNumber + 1}`;
};

/** The 15 functions with the most samples of their own, and Sesame's 20 with the most in all (callees included). */
function summarize(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const own = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idle = 0;
  for (const sample of profile.samples) {
    const node = byId.get(sample) as ProfileNode;
    const name = frameName(node);
    if (node.callFrame.functionName === '(idle)') idle++;
    own.set(name, (own.get(name) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = sample; at !== undefined; at = parentOf.get(at)) {
      const frame = frameName(byId.get(at) as ProfileNode);
      if (!seen.has(frame)) inclusive.set(frame, (inclusive.get(frame) ?? 0) + 1);
      seen.add(frame);
    }
  }
  const busy = profile.samples.length - idle;
  const share = (count: number) => `${((100 * count) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
  const top = (entries: Map<string, number>, count: number, keep: (name: string) => boolean) =>
    [...entries]
      .filter(([name]) => keep(name) && !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, samples]) => `  ${share(samples)} ${name}`);
  const ours = (name: string) => /^\S+ (services|gateway|contracts)\//.test(name);
  const text = [
    'self time (share of busy samples):',
    ...top(own, 15, () => true),
    "Sesame's functions, callees included:",
    ...top(inclusive, 20, ours),
  ].join('\n');
  return { busyPercent: Math.round((100 * busy) / Math.max(1, profile.samples.length)), text };
}
