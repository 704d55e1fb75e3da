import { MemoryEventStore } from '../event-store/memory.event-store';
import type { RecordedEvent } from '../event-store/event-store.port';
import { Aggregate } from './aggregate';
import { DomainError } from './decider';
import type { Decider } from './decider';
import { environmentOf, tenantOfData, tenantOfEvent } from './tenant';

/** A connection: created with its organization in its data, renamed without, deleted (the state forgets it). */
type Connection = { organization_id: string; environment: 'sandbox' | 'production'; name: string } | null;
type ConnectionEvent =
  | { type: 'Created'; data: { organization_id: string; organization_domain: string; environment: 'sandbox'; name: string } }
  | { type: 'Renamed'; data: { name: string } }
  | { type: 'Deleted'; data: { at: string } };
type ConnectionCommand = { type: 'Create' | 'Rename' | 'Delete'; name: string };

const connections: Decider<Connection, ConnectionCommand, ConnectionEvent> = {
  initialState: () => null,
  tenant: (state) => (state ? { organization_id: state.organization_id, environment: state.environment } : undefined),
  decide: (command) => {
    if (command.type === 'Create')
      return [
        {
          type: 'Created',
          data: { organization_id: 'org-1', organization_domain: 'acme', environment: 'sandbox', name: command.name },
        },
      ];
    if (command.type === 'Rename') return [{ type: 'Renamed', data: { name: command.name } }];
    return [{ type: 'Deleted', data: { at: 'now' } }];
  },
  evolve: (state, event) => {
    if (event.type === 'Created') return { ...event.data };
    if (event.type === 'Renamed') return state && { ...state, name: event.data.name };
    return null;
  },
};
const metadata = { correlationId: 'c', environment: 'sandbox' as const, occurredAt: '2026-01-01T00:00:00.000Z' };
const tenant = { organization_id: 'org-1', environment: 'sandbox' };

describe('the tenant on the event envelope', () => {
  const setup = () => {
    const store = new MemoryEventStore();
    const aggregate = new Aggregate({ eventStore: store }, { decider: connections, stream: (id: string) => `connection-${id}` });
    const envelopes = async () => (await store.readStream('connection-1')).events.map((event) => event.metadata);
    return { aggregate, envelopes };
  };

  it('is stamped from the data of the events that name their organization', async () => {
    const { aggregate, envelopes } = setup();
    await aggregate.handle('1', { type: 'Create', name: 'a' }, metadata);
    expect(await envelopes()).toEqual([{ ...metadata, tenant }]);
  });

  it('is stamped from the aggregate state for events whose data do not name it, a deletion included', async () => {
    const { aggregate, envelopes } = setup();
    await aggregate.handle('1', { type: 'Create', name: 'a' }, metadata);
    await aggregate.handle('1', { type: 'Rename', name: 'b' }, metadata);
    await aggregate.handle('1', { type: 'Delete', name: '' }, metadata);
    expect((await envelopes()).map((envelope) => envelope.tenant)).toEqual([tenant, tenant, tenant]);
  });

  it('is the one the caller set, when it set one', async () => {
    const { aggregate, envelopes } = setup();
    const other = { organization_id: 'org-2', environment: 'sandbox' as const };
    await aggregate.handle('1', { type: 'Create', name: 'a' }, { ...metadata, tenant: other });
    expect((await envelopes())[0]?.tenant).toEqual(other);
  });

  it('is absent when neither the events nor the state name an organization', async () => {
    const store = new MemoryEventStore();
    const aggregate = new Aggregate({ eventStore: store }, { decider: connections, stream: (id: string) => `connection-${id}` });
    await aggregate.handle('2', { type: 'Rename', name: 'b' }, metadata);
    expect((await store.readStream('connection-2')).events[0]?.metadata).toEqual(metadata);
  });
});

describe('the tenant of a recorded event', () => {
  const recorded = (data: unknown, extra: object = {}): RecordedEvent => ({
    id: 'e',
    type: 'X',
    data,
    stream: 's-1',
    revision: 0,
    metadata: { ...metadata, ...extra },
  });

  it('is its envelope’s, else (events recorded before it) what its data name', () => {
    expect(tenantOfEvent(recorded({}, { tenant }))).toEqual(tenant);
    expect(tenantOfEvent(recorded({ organization_id: 'org-1', environment: 'sandbox', at: 'x' }))).toEqual(tenant);
    expect(tenantOfEvent(recorded({ tenant: { organization_id: 'org-1', environment: 'sandbox' } }))).toEqual(tenant);
  });

  it('is unknown when neither names both the organization and a real environment', () => {
    expect(tenantOfEvent(recorded({ organization_domain: 'acme', environment: 'sandbox' }))).toBeUndefined();
    expect(tenantOfData({ organization_id: 'org-1', environment: 'staging' })).toBeUndefined();
    expect(tenantOfData(null)).toBeUndefined();
  });
});

describe('the environment of a request', () => {
  it('is its API key’s, and a request without one is refused as unauthorized', () => {
    expect(environmentOf({ environment: 'production' })).toBe('production');
    expect(() => environmentOf({})).toThrow(DomainError);
    try {
      environmentOf({});
    } catch (error) {
      expect((error as DomainError).error).toMatchObject({ code: 'unauthorized' });
    }
  });
});
