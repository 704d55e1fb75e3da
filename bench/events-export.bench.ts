import { readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { System } from '../test/support/system';
import { report } from './lib/report';
import { timed } from './lib/timing';

const users = Number(process.env.BENCH_EXPORT_USERS ?? 100_000);
const concurrency = 16;

/** A line of /proc/<pid>/status in kB (`VmRSS`: now, `VmHWM`: the peak since the process started). */
const memoryKb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]);
};

/**
 * The NDJSON export (`GET /api/v2/events/export`) of `users` user.created events: events/s and
 * the gateway's resident memory before and at its peak (VmHWM) while streaming. Seeding: users
 * created through the API (16 in flight), the real path of their events.
 */
async function main() {
  const system = await System.start({ env: { SESAME_LOG_LEVEL: 'warn' } });
  try {
    const rangeStart = new Date().toISOString();
    const created = await system.request('POST', '/api/v2/organizations', {
      body: { name: `Bench Export ${randomUUID().slice(0, 8)}`, allowed_email_domains: ['bench-export.com'] },
    });
    if (created.status !== 201) throw new Error(`organization: ${created.status}`);
    const writing = await timed({ count: users }, concurrency, async (index) => {
      const { status } = await system.request('POST', `/api/v2/org/${created.body.domain}/users`, {
        body: { email: `user-${index}@bench-export.com` },
      });
      if (status !== 201) throw new Error(`user ${index}: ${status}`);
    });
    const query = `range_start=${rangeStart}&range_end=${new Date(Date.now() + 3_600_000).toISOString()}&organization_id=${created.body.id}&events=user.created`;
    const exportOnce = async () => {
      const response = await fetch(`${system.baseUrl}/api/v2/events/export?${query}`, {
        headers: { authorization: `Bearer ${await system.token()}` },
      });
      if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status}`);
      let lines = 0;
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        lines += decoder.decode(chunk.value, { stream: true }).split('\n').length - 1;
      return lines;
    };
    // The projection catches up with the writes: the export holds every user once it is complete.
    // Meanwhile an export may be refused (503: the webhooks service busy projecting): try again.
    const caughtUp = async () => (await exportOnce().catch(() => 0)) >= users;
    while (!(await caughtUp())) await new Promise((resolve) => setTimeout(resolve, 2_000));
    const gateway = system.processIds().gateway;
    if (gateway === undefined) throw new Error('no gateway process');
    const rssBeforeKb = memoryKb(gateway, 'VmRSS');
    // Resets the gateway's peak RSS (Linux): VmHWM then measures the export only, not the seeding.
    writeFileSync(`/proc/${gateway}/clear_refs`, '5');
    const started = performance.now();
    const exported = await exportOnce();
    const seconds = (performance.now() - started) / 1_000;
    report(
      'events-export',
      [
        { name: 'users created (seeding, 16 in flight)', value: writing.perSecond, unit: 'writes/s' },
        { name: `events exported (${exported} in one NDJSON answer)`, value: exported / seconds, unit: 'events/s' },
        { name: 'gateway RSS before the export', value: rssBeforeKb / 1024, unit: 'MiB' },
        { name: 'gateway peak RSS during the export (VmHWM)', value: memoryKb(gateway, 'VmHWM') / 1024, unit: 'MiB' },
      ],
      { users, concurrency, readModel: process.env.SESAME_READ_MODEL ?? 'memory' },
    );
  } finally {
    await system.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
