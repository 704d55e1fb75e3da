import type { TotpConnectionEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { totpConnectionDecider } from './totp-connection.decider';
import type { TotpConnectionCommand } from './totp-connection.decider';

const spec = deciderSpecification(totpConnectionDecider);
const at = '2026-01-01T00:00:00.000Z';
const tenant = { organization_id: 'org-1', organization_domain: 'hooli', environment: 'sandbox' as const };
const update = (
  changes: Extract<TotpConnectionCommand, { type: 'UpdateTotpConnection' }>['data']['changes'],
): TotpConnectionCommand => ({
  type: 'UpdateTotpConnection',
  data: { tenant, changes, at },
});
const updated = (active: boolean, method: 'totp_mobile_app' | 'sms', expiry: number, when = at): TotpConnectionEvent => ({
  type: 'TotpConnectionUpdated',
  data: { ...tenant, connection: { active, method, expiry_in_seconds: expiry }, at: when },
});

describe('TOTP connection decider', () => {
  it('starts inactive with the mobile app method and 30 seconds', () => {
    expect(totpConnectionDecider.initialState().connection).toEqual({
      active: false,
      method: 'totp_mobile_app',
      expiry_in_seconds: 30,
    });
  });

  it('switches on, keeping the method and expiry', () => {
    spec
      .given([])
      .when(update({ active: true }))
      .then([updated(true, 'totp_mobile_app', 30)]);
  });

  it('takes the default expiry of a new method unless one is given (600 s for SMS, 30 s for the app)', () => {
    spec
      .given([])
      .when(update({ method: 'sms' }))
      .then([updated(false, 'sms', 600)]);
    spec
      .given([updated(true, 'sms', 600)])
      .when(update({ method: 'totp_mobile_app' }))
      .then([updated(true, 'totp_mobile_app', 30)]);
    spec
      .given([])
      .when(update({ method: 'sms', expiry_in_seconds: 120 }))
      .then([updated(false, 'sms', 120)]);
    spec
      .given([updated(true, 'sms', 120)])
      .when(update({ active: false }))
      .then([updated(false, 'sms', 120)]);
  });

  it('accepts 30 to 900 seconds and refuses anything else', () => {
    spec
      .given([])
      .when(update({ expiry_in_seconds: 900 }))
      .then([updated(false, 'totp_mobile_app', 900)]);
    for (const expiry of [29, 901, 10.5])
      spec
        .given([])
        .when(update({ expiry_in_seconds: expiry }))
        .thenFails({ kind: 'fields', fields: { expiry_in_seconds: ['must be between 30 and 900'] } });
  });

  it('records nothing when nothing changes', () => {
    spec
      .given([])
      .when(update({ active: false, method: 'totp_mobile_app' }))
      .thenNothingHappens();
    spec
      .given([updated(true, 'sms', 600)])
      .when(update({ active: true, expiry_in_seconds: 600 }))
      .thenNothingHappens();
  });
  describe('when its organization is deleted', () => {
    const later = '2026-01-03T00:00:00.000Z';
    const remove: TotpConnectionCommand = {
      type: 'DeleteTotpConnection',
      data: { reason: 'organization_deleted', organization_id: 'org-1', at: later },
    };
    const deleted: TotpConnectionEvent = {
      type: 'TotpConnectionDeleted',
      data: { ...tenant, reason: 'organization_deleted', at: later },
    };

    it('removes the connection of the deleted organization, even when changed since, back to the defaults', () => {
      spec
        .given([updated(true, 'sms', 600)])
        .when(remove)
        .then([deleted]);
      spec
        .given([updated(true, 'sms', 600), updated(false, 'sms', 600, later)])
        .when(remove)
        .then([deleted]);
    });

    it('does nothing again on a redelivered deletion, nor when it was never changed', () => {
      spec
        .given([updated(true, 'sms', 600), deleted])
        .when(remove)
        .then([]);
      spec.given([]).when(remove).then([]);
    });

    it('leaves alone the connection of another organization, such as one of the same domain created since (another id), however late', () => {
      const ofNewOrganization = (when: string): TotpConnectionEvent => ({
        type: 'TotpConnectionUpdated',
        data: {
          ...tenant,
          organization_id: 'org-2',
          connection: { active: true, method: 'sms', expiry_in_seconds: 600 },
          at: when,
        },
      });
      spec
        .given([ofNewOrganization(later)])
        .when(remove)
        .then([]);
      // The clock does not decide: changed at an instant before the deletion, it is still not the deleted organization's.
      spec
        .given([ofNewOrganization(at)])
        .when(remove)
        .then([]);
    });

    it('lets the organization change it again from the defaults', () =>
      spec
        .given([updated(true, 'sms', 600), deleted])
        .when(update({ active: true }))
        .then([updated(true, 'totp_mobile_app', 30)]));
  });
});
