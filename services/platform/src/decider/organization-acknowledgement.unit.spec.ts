import type { OrganizationAcknowledgementEvent } from '@sesame/contracts';
import { deciderSpecification } from '../testing/decider-specification';
import { MemoryEventStore } from '../event-store/memory.event-store';
import type { RecordedEvent } from '../event-store/event-store.port';
import {
  acknowledgeOrganization,
  organizationAcknowledgementDecider,
  organizationAcknowledgementStream,
} from './organization-acknowledgement';

const data = {
  organization_id: '2f1f9f6e-6a5e-4b8a-9a53-2a0b5b0d5c11',
  domain: 'acme',
  environment: 'sandbox' as const,
  at: '2026-01-01T00:00:00.000Z',
};
const acknowledged: OrganizationAcknowledgementEvent = { type: 'OrganizationAcknowledged', data };
const spec = deciderSpecification(organizationAcknowledgementDecider);

describe('organization acknowledgement decider', () => {
  it('records an organization the service took in', () =>
    spec.given([]).when({ type: 'AcknowledgeOrganization', data }).then([acknowledged]));

  it('records it once: a redelivered creation adds nothing', () =>
    spec
      .given([acknowledged])
      .when({ type: 'AcknowledgeOrganization', data: { ...data, at: '2026-01-01T00:00:05.000Z' } })
      .then([]));
});

describe('acknowledgeOrganization', () => {
  it("appends the acknowledgement to the organization id's stream, caused by identity's creation", async () => {
    const eventStore = new MemoryEventStore();
    const created = {
      id: 'event-1',
      type: 'OrganizationCreated',
      stream: 'organization-sandbox:acme',
      revision: 0,
      metadata: { correlationId: 'c-1', occurredAt: data.at, environment: 'sandbox' },
      data: {
        id: data.organization_id,
        domain: 'acme',
        environment: 'sandbox',
        name: 'Acme',
        allowed_email_domains: [],
        allowed_authn_connections: ['sso'],
        color: null,
        icon_logo_url: null,
        inline_logo_url: null,
        locale: null,
        timezone: null,
        tenant_id: null,
        environments: [{ name: 'sandbox', status: 'up' }],
        at: data.at,
      },
    } as RecordedEvent & Parameters<typeof acknowledgeOrganization>[1];
    await acknowledgeOrganization({ eventStore }, created, 'webhooks:organizations');
    await acknowledgeOrganization({ eventStore }, created, 'webhooks:organizations');
    const { events } = await eventStore.readStream(organizationAcknowledgementStream(data.organization_id));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'OrganizationAcknowledged',
        data: { organization_id: data.organization_id, domain: 'acme', environment: 'sandbox', at: expect.any(String) },
        metadata: expect.objectContaining({
          correlationId: 'c-1',
          causationId: 'event-1',
          actor: { type: 'system', id: 'webhooks:organizations' },
        }),
      }),
    ]);
  });
});
