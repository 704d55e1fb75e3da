import { fold } from '@sesame/platform';
import { deciderSpecification } from '@sesame/platform/testing';
import type { ScimActivityEvent } from '@sesame/contracts';
import { scimActivityDecider } from './scim-activity.decider';
import type { ScimActivityCommand } from './scim-activity.decider';

const spec = deciderSpecification(scimActivityDecider);
const t0 = Date.parse('2026-01-01T00:00:00.000Z');
/** `t(30)`: thirty seconds after the first request. */
const t = (seconds: number) => new Date(t0 + seconds * 1_000).toISOString();
const tenant = { directory_sync_id: 'dir-1', organization_domain: 'acme', environment: 'sandbox' as const };
const unauthorized = { status: 401, detail: 'Authentication failed: the bearer token is not the one of this directory sync' };
const invalid = { status: 400, detail: 'userName is required' };

const request = (at: string, error: { status: number; detail: string } | null = null): ScimActivityCommand => ({
  type: 'RecordScimActivity',
  data: { ...tenant, at, error },
});
const recorded = (at: string, error: { status: number; detail: string } | null = null): ScimActivityEvent => ({
  type: 'ScimActivityRecorded',
  data: { ...tenant, at, error },
});

describe('SCIM activity decider', () => {
  it('records the first request of a directory sync', () => {
    spec
      .given([])
      .when(request(t(0)))
      .then([recorded(t(0))]);
  });

  it('records a successful request at most once a minute', () => {
    spec
      .given([recorded(t(0))])
      .when(request(t(59)))
      .thenNothingHappens();
    spec
      .given([recorded(t(0))])
      .when(request(t(60)))
      .then([recorded(t(60))]);
  });

  it('records each new error at once, the same error again at most once a minute', () => {
    spec
      .given([recorded(t(0))])
      .when(request(t(1), unauthorized))
      .then([recorded(t(1), unauthorized)]);
    spec
      .given([recorded(t(0)), recorded(t(1), unauthorized)])
      .when(request(t(2), unauthorized))
      .thenNothingHappens();
    spec
      .given([recorded(t(0)), recorded(t(1), unauthorized)])
      .when(request(t(3), invalid))
      .then([recorded(t(3), invalid)]);
    spec
      .given([recorded(t(0)), recorded(t(1), unauthorized)])
      .when(request(t(61), unauthorized))
      .then([recorded(t(61), unauthorized)]);
  });

  it('keeps the last error after successful requests, and the latest request time whatever the order of replicas', () => {
    const state = fold(scimActivityDecider, [recorded(t(0), invalid), recorded(t(90)), recorded(t(80))]);
    expect(state).toEqual({ status: 'recorded', ...tenant, last_request_at: t(90), last_error: { at: t(0), ...invalid } });
  });
});
