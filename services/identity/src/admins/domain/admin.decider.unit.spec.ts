import { deciderSpecification } from '@sesame/platform/testing';
import { fold } from '@sesame/platform';
import type { Admin, AdminEvent, OnboardingSetup } from '@sesame/contracts';
import { adminDecider, linkExpiry } from './admin.decider';
import type { AdminCommand, AdminRecord, OnboardingTimes } from './admin.decider';
import type { Tenant } from '../../users/domain/user.decider';

const spec = deciderSpecification(adminDecider);
const tenant: Tenant = {
  organization_id: 'org-1',
  organization_domain: 'acme',
  allowed_email_domains: [],
  environment: 'sandbox',
};
const minute = 60_000;
const times: OnboardingTimes = { link_ttl_ms: 60 * minute, session_idle_ms: 30 * minute, session_max_ms: 8 * 60 * minute };
const t0 = Date.parse('2026-01-01T00:00:00.000Z');
/** `t(5)`: five minutes after the invitation. */
const t = (minutes: number) => new Date(t0 + minutes * minute).toISOString();
const linkExpires = t(60);

const invite = (hash = 'link-1', when = t(0), allowed_setups: OnboardingSetup[] = ['sso']): AdminCommand => ({
  type: 'InviteAdmin',
  data: {
    allowed_setups,
    tenant,
    id: 'admin-1',
    email: 'it@acme.com',
    color: '#2563eb',
    invitation_hash: hash,
    expires_at: linkExpires,
    at: when,
  },
});
const open = (hash = 'link-1', when = t(5), session = { id: 'session-1', hash: 'secret-1' }): AdminCommand => ({
  type: 'OpenInvitationLink',
  data: { invitation_hash: hash, session, times, at: when },
});
const use = (hash = 'secret-1', when = t(6), setup?: OnboardingSetup): AdminCommand => ({
  type: 'UseOnboardingSession',
  data: { session_hash: hash, ...(setup ? { setup } : {}), times, at: when },
});
const answer = (choice: 'accept' | 'decline', sessionId = 'session-1', when = t(20)): AdminCommand => ({
  type: 'AnswerInvitation',
  data: { answer: choice, session_id: sessionId, at: when },
});
const revoke = (when = t(10)): AdminCommand => ({ type: 'RevokeOnboarding', data: { tenant, at: when } });

/** The events a command adds to a history (which must accept it). */
const after = (history: AdminEvent[], command: AdminCommand) => [
  ...history,
  ...adminDecider.decide(command, fold(adminDecider, history)),
];
const invited = after([], invite());
const opened = after(invited, open());
const state = (history: AdminEvent[]) => fold(adminDecider, history) as AdminRecord & { status: string };

const token = (message: string) => ({ kind: 'fields' as const, fields: { token: [message] } });
const session = (message: string) => ({ kind: 'error' as const, code: 'onboarding_session_required' as const, message });
const linkUsed = token('has already been used: the link works once, ask for a new one');
const sessionEnded = session('Your onboarding session has ended: ask for a new invitation link');
const sessionExpired = session('Your onboarding session has expired: ask for a new invitation link');
const tenantData = (at: string) => ({
  organization_domain: 'acme',
  organization_id: 'org-1',
  environment: 'sandbox' as const,
  at,
});
const admin = (fields: Partial<Admin> = {}): Admin => ({
  __type__: 'Admin',
  __domain__: 'acme',
  __environment__: 'sandbox',
  id: 'admin-1',
  email: 'it@acme.com',
  organization: 'acme',
  color: '#2563eb',
  invited_at: t(0),
  accepted_invitation_at: null,
  declined_to_be_in_charge_at: null,
  last_login_at: null,
  ...fields,
});

describe('admin decider', () => {
  it('invites with the hash of the link and its expiry', () => {
    spec
      .given([])
      .when(invite())
      .then([
        {
          type: 'AdminInvited',
          data: {
            ...tenantData(t(0)),
            invitation_hash: 'link-1',
            invitation_expires_at: linkExpires,
            admin: admin(),
            allowed_setups: ['sso'],
          },
        },
      ]);
  });

  describe('what the invitation lets the admin set up', () => {
    const setupNotAllowed = { kind: 'error' as const, code: 'onboarding_setup_not_allowed' as const };

    it('refuses a call that sets up what the invitation does not allow, before anything else happens', () => {
      spec
        .given(opened)
        .when(use('secret-1', t(20), 'directory_sync'))
        .thenFails(setupNotAllowed);
      spec
        .given(opened)
        .when(use('secret-1', t(20), 'sso'))
        .then([expect.objectContaining({ type: 'AdminOnboardingSessionExtended' })]);
      const directoryOnly = after(after([], invite('link-1', t(0), ['directory_sync'])), open());
      spec
        .given(directoryOnly)
        .when(use('secret-1', t(20), 'sso'))
        .thenFails(setupNotAllowed);
      spec
        .given(directoryOnly)
        .when(use('secret-1', t(5.5), 'directory_sync'))
        .thenNothingHappens();
    });

    it('checks the session first: a stranger learns nothing about the invitation', () => {
      spec
        .given(opened)
        .when(use('another', t(20), 'directory_sync'))
        .thenFails(sessionEnded);
    });

    it('follows the latest invitation, and reads SSO only from invitations recorded before it existed', () => {
      const widened = after(
        after(opened, invite('link-2', t(30), ['sso', 'directory_sync'])),
        open('link-2', t(31), { id: 'session-2', hash: 'secret-2' }),
      );
      expect(state(widened).allowed_setups).toEqual(['sso', 'directory_sync']);
      const legacy = invited.map((event) => {
        if (event.type !== 'AdminInvited') return event;
        const { allowed_setups: _dropped, ...data } = event.data;
        return { ...event, data };
      });
      expect(state(legacy).allowed_setups).toEqual(['sso']);
    });
  });

  describe('the emailed link', () => {
    it('opens once, in time: it is used up and opens a session in that browser (a login)', () => {
      const data = { ...tenantData(t(5)), admin: admin({ last_login_at: t(5) }) };
      spec
        .given(invited)
        .when(open())
        .then([
          { type: 'AdminInvitationLinkExchanged', data },
          {
            type: 'AdminOnboardingSessionOpened',
            data: {
              ...data,
              session: { id: 'session-1', session_hash: 'secret-1', opened_at: t(5), idle_expires_at: t(35), expires_at: t(485) },
            },
          },
          { type: 'AdminLoggedIn', data },
        ]);
      expect(state(opened)).toMatchObject({ link_state: 'exchanged', session: { id: 'session-1', hash: 'secret-1' } });
    });

    it('is refused a second time, also after the set-up is finished, and whatever session it would open', () => {
      spec
        .given(opened)
        .when(open('link-1', t(6), { id: 'session-2', hash: 'secret-2' }))
        .thenFails(linkUsed);
      spec
        .given(after(opened, answer('accept')))
        .when(open('link-1', t(21)))
        .thenFails(linkUsed);
    });

    it('is refused late: after its expiry, and after the configured lifetime even if it was emailed for longer', () => {
      spec.given(invited).when(open('link-1', linkExpires)).thenFails(token('has expired: ask for a new link'));
      // A link emailed when invitations lasted 30 days expires by the current lifetime.
      const legacy = [{ ...invited[0], data: { ...invited[0]!.data, invitation_expires_at: t(30 * 24 * 60) } } as AdminEvent];
      expect(linkExpiry(state(legacy), times.link_ttl_ms)).toBe(t0 + 60 * minute);
      spec
        .given(legacy)
        .when(open('link-1', t(61)))
        .thenFails(token('has expired: ask for a new link'));
    });

    it('refuses a wrong link, a link replaced by a new invitation, revoked, declined, and any of a removed admin', () => {
      spec.given(invited).when(open('other')).thenFails(token('is invalid'));
      spec.given([]).when(open()).thenFails(token('is invalid'));
      spec
        .given(after(invited, invite('link-2', t(1))))
        .when(open('link-1'))
        .thenFails(token('is invalid'));
      spec
        .given(after(invited, revoke(t(1))))
        .when(open())
        .thenFails(token('has been revoked: ask for a new link'));
      spec
        .given(after(opened, answer('decline')))
        .when(open('link-1', t(21)))
        .thenFails(token('has been declined: ask to be invited again'));
      spec
        .given(after(invited, { type: 'RemoveAdmin', data: { tenant, reason: 'api', at: t(1) } }))
        .when(open())
        .thenFails(token('is invalid'));
    });

    it('counts an answer given with the link before links were single use as its use', () => {
      const legacyAccepted: AdminEvent = {
        type: 'AdminInvitationAccepted',
        data: { ...tenantData(t(2)), admin: admin({ accepted_invitation_at: t(2) }) },
      };
      spec
        .given([...invited, legacyAccepted])
        .when(open())
        .thenFails(linkUsed);
    });
  });

  describe('the onboarding session', () => {
    it('authorizes the calls of the page, and slides its idle expiry at most once a minute', () => {
      spec
        .given(opened)
        .when(use('secret-1', t(5.5)))
        .thenNothingHappens();
      spec
        .given(opened)
        .when(use('secret-1', t(20)))
        .then([
          {
            type: 'AdminOnboardingSessionExtended',
            data: {
              ...tenantData(t(20)),
              admin: admin({ last_login_at: t(5) }),
              session_id: 'session-1',
              idle_expires_at: t(50),
            },
          },
        ]);
      // Kept alive by activity past its first idle expiry (t35).
      const active = after(after(opened, use('secret-1', t(20))), use('secret-1', t(45)));
      expect(state(active).session?.idle_expires_at).toBe(t(75));
      spec
        .given(active)
        .when(use('secret-1', t(70)))
        .then([expect.objectContaining({ type: 'AdminOnboardingSessionExtended' })]);
    });

    it('expires after the idle time without calls, and at its absolute end whatever the activity', () => {
      spec
        .given(opened)
        .when(use('secret-1', t(35)))
        .thenFails(sessionExpired);
      let busy = opened;
      for (let minutes = 30; minutes < 485; minutes += 25) busy = after(busy, use('secret-1', t(minutes)));
      expect(state(busy).session?.idle_expires_at).toBe(t(485));
      spec
        .given(busy)
        .when(use('secret-1', t(485)))
        .thenFails(sessionExpired);
    });

    it('refuses another secret, another session’s, and any once the admin is removed', () => {
      spec.given(opened).when(use('secret-2')).thenFails(sessionEnded);
      spec.given(invited).when(use('secret-1')).thenFails(sessionEnded);
      spec.given([]).when(use()).thenFails(sessionEnded);
      spec
        .given(after(opened, { type: 'RemoveAdmin', data: { tenant, reason: 'api', at: t(6) } }))
        .when(use())
        .thenFails(sessionEnded);
    });

    it('ends when the set-up is finished (accepted) or the invitation declined', () => {
      spec
        .given(opened)
        .when(answer('accept'))
        .then([
          {
            type: 'AdminInvitationAccepted',
            data: { ...tenantData(t(20)), admin: admin({ last_login_at: t(5), accepted_invitation_at: t(20) }) },
          },
          {
            type: 'AdminOnboardingSessionEnded',
            data: {
              ...tenantData(t(20)),
              admin: admin({ last_login_at: t(5), accepted_invitation_at: t(20) }),
              session_id: 'session-1',
              reason: 'accepted',
            },
          },
        ]);
      spec
        .given(opened)
        .when(answer('decline'))
        .then([
          expect.objectContaining({
            type: 'AdminInvitationDeclined',
            data: expect.objectContaining({ admin: expect.objectContaining({ declined_to_be_in_charge_at: t(20) }) }),
          }),
          expect.objectContaining({ type: 'AdminOnboardingSessionEnded', data: expect.objectContaining({ reason: 'declined' }) }),
        ]);
      for (const choice of ['accept', 'decline'] as const) {
        const ended = after(opened, answer(choice));
        expect(state(ended).session).toBeNull();
        spec
          .given(ended)
          .when(use('secret-1', t(21)))
          .thenFails(sessionEnded);
        spec
          .given(ended)
          .when(answer('accept', 'session-1', t(21)))
          .thenFails(sessionEnded);
      }
    });

    it('answers only with the session that is open and alive', () => {
      spec.given(opened).when(answer('accept', 'session-2')).thenFails(sessionEnded);
      spec.given(invited).when(answer('accept')).thenFails(sessionEnded);
      spec
        .given(opened)
        .when(answer('accept', 'session-1', t(35)))
        .thenFails(sessionExpired);
    });
  });

  describe('what the vendor does', () => {
    it('revokes the session at once, and a link not opened yet; with nothing to revoke, nothing happens', () => {
      spec
        .given(opened)
        .when(revoke())
        .then([
          {
            type: 'AdminOnboardingSessionEnded',
            data: { ...tenantData(t(10)), admin: admin({ last_login_at: t(5) }), session_id: 'session-1', reason: 'revoked' },
          },
        ]);
      spec
        .given(invited)
        .when(revoke())
        .then([{ type: 'AdminInvitationLinkRevoked', data: { ...tenantData(t(10)), admin: admin() } }]);
      spec
        .given(after(opened, revoke()))
        .when(use('secret-1', t(11)))
        .thenFails(sessionEnded);
      spec
        .given(after(opened, revoke()))
        .when(revoke(t(11)))
        .thenNothingHappens();
      spec
        .given(opened)
        .when(revoke(t(40)))
        .thenNothingHappens();
      spec.given([]).when(revoke()).thenFails({ kind: 'error', code: 'resource_not_found' });
      spec
        .given(opened)
        .when({ type: 'RevokeOnboarding', data: { tenant: { ...tenant, organization_id: 'org-2' }, at: t(10) } })
        .thenFails({ kind: 'error', code: 'resource_not_found' });
    });

    it('invites again: a new link, which ends the session of the previous one, keeping the id and colour', () => {
      const again = after(opened, invite('link-2', t(10)));
      expect(again.slice(opened.length)).toEqual([
        {
          type: 'AdminOnboardingSessionEnded',
          data: { ...tenantData(t(10)), admin: admin({ last_login_at: t(5) }), session_id: 'session-1', reason: 'reinvited' },
        },
        expect.objectContaining({
          type: 'AdminInvited',
          data: expect.objectContaining({ invitation_hash: 'link-2', admin: admin({ invited_at: t(10), last_login_at: t(5) }) }),
        }),
      ]);
      spec
        .given(again)
        .when(use('secret-1', t(11)))
        .thenFails(sessionEnded);
      spec
        .given(again)
        .when(open('link-1', t(11)))
        .thenFails(token('is invalid'));
      spec
        .given(again)
        .when(open('link-2', t(11), { id: 'session-2', hash: 'secret-2' }))
        .then(expect.arrayContaining([expect.objectContaining({ type: 'AdminOnboardingSessionOpened' })]));
    });

    it('invites again an admin who finished or declined: a new link; having accepted stays on record', () => {
      const accepted = after(after(opened, answer('accept')), invite('link-2', t(30)));
      expect(state(accepted)).toMatchObject({ accepted_invitation_at: t(20), invited_at: t(30), link_state: 'unused' });
      const declined = after(after(opened, answer('decline')), invite('link-2', t(30)));
      expect(state(declined)).toMatchObject({ declined_to_be_in_charge_at: null, link_state: 'unused' });
      spec
        .given(declined)
        .when(open('link-2', t(31)))
        .then(expect.arrayContaining([expect.objectContaining({ type: 'AdminInvitationLinkExchanged' })]));
    });

    it('removes a live admin, ending their session; records logins of a live admin only', () => {
      spec
        .given(opened)
        .when({ type: 'RemoveAdmin', data: { tenant, reason: 'api', at: t(10) } })
        .then([
          expect.objectContaining({ type: 'AdminOnboardingSessionEnded', data: expect.objectContaining({ reason: 'removed' }) }),
          expect.objectContaining({ type: 'AdminRemoved' }),
        ]);
      spec
        .given(invited)
        .when({ type: 'RemoveAdmin', data: { tenant, reason: 'api', at: t(10) } })
        .then([expect.objectContaining({ type: 'AdminRemoved' })]);
      spec
        .given(invited)
        .when({ type: 'RecordAdminLogin', data: { tenant, at: t(10) } })
        .then([{ type: 'AdminLoggedIn', data: { ...tenantData(t(10)), admin: admin({ last_login_at: t(10) }) } }]);
      spec
        .given([])
        .when({ type: 'RemoveAdmin', data: { tenant, reason: 'api', at: t(0) } })
        .thenFails({ kind: 'error', code: 'resource_not_found' });
      spec
        .given(invited)
        .when({ type: 'RemoveAdmin', data: { tenant: { ...tenant, organization_id: 'org-2' }, reason: 'api', at: t(0) } })
        .thenFails({ kind: 'error', code: 'resource_not_found' });
    });
  });
});
