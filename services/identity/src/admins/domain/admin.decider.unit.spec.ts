import { deciderSpecification } from '@sesame/platform/testing';
import type { AdminEvent } from '@sesame/contracts';
import { adminDecider } from './admin.decider';
import type { AdminCommand } from './admin.decider';
import type { Tenant } from '../../users/domain/user.decider';

const spec = deciderSpecification(adminDecider);
const tenant: Tenant = {
  organization_id: 'org-1',
  organization_domain: 'acme',
  allowed_email_domains: [],
  environment: 'sandbox',
};
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-05T00:00:00.000Z';
const expires = '2026-01-31T00:00:00.000Z';
const invite = (hash = 'hash-1', when = at): AdminCommand => ({
  type: 'InviteAdmin',
  data: { tenant, id: 'admin-1', email: 'it@acme.com', color: '#2563eb', invitation_hash: hash, expires_at: expires, at: when },
});
const invited = (hash = 'hash-1', when = at) =>
  adminDecider.decide(invite(hash, when), adminDecider.initialState())[0] as AdminEvent;
const answer = (choice: 'accept' | 'decline', hash = 'hash-1', when = later): AdminCommand => ({
  type: 'AnswerInvitation',
  data: { answer: choice, invitation_hash: hash, at: when },
});
const token = (message: string) => ({ kind: 'fields' as const, fields: { token: [message] } });

describe('admin decider', () => {
  it('invites with the hash of the token and its expiry', () => {
    spec
      .given([])
      .when(invite())
      .then([
        {
          type: 'AdminInvited',
          data: {
            organization_domain: 'acme',
            organization_id: 'org-1',
            environment: 'sandbox',
            at,
            invitation_hash: 'hash-1',
            invitation_expires_at: expires,
            admin: {
              __type__: 'Admin',
              __domain__: 'acme',
              __environment__: 'sandbox',
              id: 'admin-1',
              email: 'it@acme.com',
              organization: 'acme',
              color: '#2563eb',
              invited_at: at,
              accepted_invitation_at: null,
              declined_to_be_in_charge_at: null,
              last_login_at: null,
            },
          },
        },
      ]);
  });

  it('accepts once; the token then answers already used', () => {
    spec
      .given([invited()])
      .when(answer('accept'))
      .then([
        {
          type: 'AdminInvitationAccepted',
          data: expect.objectContaining({
            admin: expect.objectContaining({ accepted_invitation_at: later, declined_to_be_in_charge_at: null }),
          }),
        },
      ]);
    const accepted = adminDecider.decide(answer('accept'), [invited()].reduce(adminDecider.evolve, adminDecider.initialState()));
    spec
      .given([invited(), ...accepted])
      .when(answer('accept'))
      .thenFails(token('has already been used'));
    spec
      .given([invited(), ...accepted])
      .when(answer('decline'))
      .thenFails(token('has already been used'));
  });

  it('records a decline', () => {
    spec
      .given([invited()])
      .when(answer('decline'))
      .then([
        {
          type: 'AdminInvitationDeclined',
          data: expect.objectContaining({
            admin: expect.objectContaining({ declined_to_be_in_charge_at: later, accepted_invitation_at: null }),
          }),
        },
      ]);
  });

  it('refuses a wrong token, an expired one, and any for an unknown or removed admin', () => {
    spec.given([invited()]).when(answer('accept', 'other')).thenFails(token('is invalid'));
    spec
      .given([invited()])
      .when(answer('accept', 'hash-1', expires))
      .thenFails(token('has expired: ask to be invited again'));
    spec.given([]).when(answer('accept')).thenFails(token('is invalid'));
    const removed: AdminEvent[] = adminDecider.decide(
      { type: 'RemoveAdmin', data: { tenant, reason: 'api', at: later } },
      [invited()].reduce(adminDecider.evolve, adminDecider.initialState()),
    );
    spec
      .given([invited(), ...removed])
      .when(answer('accept'))
      .thenFails(token('is invalid'));
  });

  it('invites again with a new token (the old one stops working), keeping the id and colour', () => {
    const again = adminDecider.decide(
      invite('hash-2', later),
      [invited()].reduce(adminDecider.evolve, adminDecider.initialState()),
    );
    expect(again[0]).toMatchObject({ data: { invitation_hash: 'hash-2', admin: { id: 'admin-1', invited_at: later } } });
    spec
      .given([invited(), ...again])
      .when(answer('accept', 'hash-1'))
      .thenFails(token('is invalid'));
  });

  it('refuses inviting an admin who accepted', () => {
    const accepted = adminDecider.decide(answer('accept'), [invited()].reduce(adminDecider.evolve, adminDecider.initialState()));
    spec
      .given([invited(), ...accepted])
      .when(invite('hash-3'))
      .thenFails({ kind: 'fields', fields: { email: ['has already been taken: this admin accepted an invitation'] } });
  });

  it('records logins and removals of a live admin only', () => {
    spec
      .given([invited()])
      .when({ type: 'RecordAdminLogin', data: { tenant, at: later } })
      .then([
        { type: 'AdminLoggedIn', data: expect.objectContaining({ admin: expect.objectContaining({ last_login_at: later }) }) },
      ]);
    spec
      .given([])
      .when({ type: 'RemoveAdmin', data: { tenant, reason: 'api', at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
    spec
      .given([invited()])
      .when({ type: 'RemoveAdmin', data: { tenant: { ...tenant, organization_id: 'org-2' }, reason: 'api', at } })
      .thenFails({
        kind: 'error',
        code: 'resource_not_found',
      });
  });

  describe('opening the onboarding page with the invitation token', () => {
    const open = (hash = 'hash-1', when = later): AdminCommand => ({
      type: 'OpenInvitation',
      data: { invitation_hash: hash, at: when },
    });
    const after = (command: AdminCommand) =>
      adminDecider.decide(command, [invited()].reduce(adminDecider.evolve, adminDecider.initialState()));

    it('records the visit as a login, before and after the invitation is accepted', () => {
      const login: AdminEvent = {
        type: 'AdminLoggedIn',
        data: expect.objectContaining({ organization_id: 'org-1', admin: expect.objectContaining({ last_login_at: later }) }),
      };
      spec.given([invited()]).when(open()).then([login]);
      spec
        .given([invited(), ...after(answer('accept', 'hash-1', at))])
        .when(open())
        .then([login]);
    });

    it('refuses a wrong token, a declined or expired invitation, and a removed admin', () => {
      spec.given([invited()]).when(open('other')).thenFails(token('is invalid'));
      spec.given([]).when(open()).thenFails(token('is invalid'));
      spec
        .given([invited(), ...after(answer('decline', 'hash-1', at))])
        .when(open())
        .thenFails(token('has been declined: ask to be invited again'));
      spec.given([invited()]).when(open('hash-1', expires)).thenFails(token('has expired: ask to be invited again'));
      spec
        .given([invited(), ...after({ type: 'RemoveAdmin', data: { tenant, reason: 'api', at } })])
        .when(open())
        .thenFails(token('is invalid'));
    });
  });
});
