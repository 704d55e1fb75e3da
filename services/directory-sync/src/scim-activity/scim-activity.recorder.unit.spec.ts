import type { RpcReply } from '@sesame/contracts';
import { Aggregate, MemoryEventStore, createLogger } from '@sesame/platform';
import { scimActivityDecider } from './domain/scim-activity.decider';
import { scimActivityStream } from './projections/scim-activity.projection';
import { ScimActivityRecorder, scimErrorOf } from './scim-activity.recorder';
import type { ScimActivityRecorderDeps } from './scim-activity.recorder';

const anyDirectory = { id: 'dir-1', organization_domain: 'acme', environment: 'sandbox' };
const ok: RpcReply = { ok: true, status: 200, body: {} };
const refused: RpcReply = {
  ok: false,
  error: { kind: 'scim', status: 409, scimType: 'uniqueness', detail: 'userName is taken' },
};
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A recorder over a directory table and a command log, at a clock the test moves. */
function recorderAt(
  clock: { now: number },
  handle: ScimActivityRecorderDeps['activity']['handle'] = async () => ({}) as never,
  directory: Record<string, unknown> = anyDirectory,
) {
  const commands: unknown[] = [];
  const deps = {
    activity: {
      handle: async (...args: Parameters<typeof handle>) => (commands.push(args[1]), handle(...args)),
    },
    directories: {
      documents: {
        find: async (filter: Record<string, unknown>) =>
          filter['directory_sync.id'] === directory.id ? [{ status: 'active', directory_sync: directory }] : [],
      },
    },
    metadata: () => ({ correlationId: 'scim-activity', occurredAt: new Date(clock.now).toISOString() }),
    logger: createLogger('test', 'silent'),
    now: () => new Date(clock.now),
  } as unknown as ScimActivityRecorderDeps;
  return { recorder: new ScimActivityRecorder(deps), commands };
}

describe('SCIM activity recorder', () => {
  it('goes to the store for a request at most a minute after the last it recorded, and for every refused one', async () => {
    const clock = { now: Date.parse('2026-01-01T00:00:00.000Z') };
    const { recorder, commands } = recorderAt(clock);
    recorder.observe('dir-1', ok);
    clock.now += 30_000;
    recorder.observe('dir-1', ok);
    recorder.observe('dir-1', refused);
    clock.now += 59_000;
    recorder.observe('dir-1', ok);
    clock.now += 1_000;
    recorder.observe('dir-1', ok);
    await flush();
    expect(commands).toEqual([
      {
        type: 'RecordScimActivity',
        data: {
          directory_sync_id: 'dir-1',
          organization_domain: 'acme',
          environment: 'sandbox',
          at: '2026-01-01T00:00:00.000Z',
          error: null,
        },
      },
      {
        type: 'RecordScimActivity',
        data: expect.objectContaining({ at: '2026-01-01T00:00:30.000Z', error: { status: 409, detail: 'userName is taken' } }),
      },
      { type: 'RecordScimActivity', data: expect.objectContaining({ at: '2026-01-01T00:01:30.000Z', error: null }) },
    ]);
  });

  it("puts the directory sync's organization (id and environment) on the envelope of the activity it records", async () => {
    const clock = { now: Date.parse('2026-01-01T00:00:00.000Z') };
    const eventStore = new MemoryEventStore();
    const activity = new Aggregate({ eventStore }, { decider: scimActivityDecider, stream: scimActivityStream });
    const owned = { ...anyDirectory, organization_id: 'org-acme' };
    const { recorder } = recorderAt(clock, (...args) => activity.handle(...args), owned);
    recorder.observe('dir-1', refused);
    await flush();
    await flush();
    const { events } = await eventStore.readStream(scimActivityStream('dir-1'));
    expect(
      events.map((event) => [event.type, (event.data as { organization_id?: string }).organization_id, event.metadata.tenant]),
    ).toEqual([['ScimActivityRecorded', 'org-acme', { organization_id: 'org-acme', environment: 'sandbox' }]]);
  });

  it('records nothing for a directory sync that does not exist, nor without one', async () => {
    const { recorder, commands } = recorderAt({ now: 0 });
    recorder.observe('unknown', refused);
    recorder.observe(undefined, refused);
    await flush();
    expect(commands).toEqual([]);
  });

  it('never throws into the request path when the store fails', async () => {
    const { recorder } = recorderAt({ now: 0 }, async () => {
      throw new Error('store down');
    });
    expect(() => recorder.observe('dir-1', ok)).not.toThrow();
    await flush();
  });

  it('reads the status and detail of every kind of refusal', () => {
    expect(scimErrorOf({ kind: 'scim', status: 401, detail: 'no' })).toEqual({ status: 401, detail: 'no' });
    expect(scimErrorOf({ kind: 'error', code: 'internal_server_error' })).toEqual({
      status: 500,
      detail: 'Internal Server Error',
    });
    expect(scimErrorOf({ kind: 'fields', fields: { userName: ['is required'] } })).toEqual({ status: 422, detail: 'userName' });
  });
});
