import type { PasswordCodeEvent, PasswordConnectionEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { attemptTooSoon, nextAttemptAt, passwordAttemptsDecider } from './password-attempts.decider';
import { passwordCodeDecider } from './password-code.decider';
import { defaultPasswordConnection, passwordConnectionDecider } from './password-connection.decider';
import type { PasswordConnectionCommand } from './password-connection.decider';
import { passwordDecider } from './password.decider';

const at = '2026-01-01T00:00:00.000Z';
const connectionId = '5b0c7e2a-1d3f-5a4b-8c6d-7e8f9a0b1c2d';
const acmeId = '9f0c7e2a-1d3f-4a4b-8c6d-7e8f9a0b1c2d';
const recreatedAcmeId = '9f0c7e2a-1d3f-4a4b-8c6d-7e8f9a0b1c2e';
const scope = { id: connectionId, organization_id: acmeId, environment: 'sandbox' as const, organization_domain: 'acme', at };

describe('password connection', () => {
  const spec = deciderSpecification(passwordConnectionDecider);
  const created: PasswordConnectionEvent = {
    type: 'PasswordConnectionCreated',
    data: { ...defaultPasswordConnection, plain_text_min_length: 10, ...scope },
  };

  it('is created once, over the defaults', () => {
    spec
      .given([])
      .when({ type: 'CreatePasswordConnection', data: { ...scope, settings: { plain_text_min_length: 10 } } })
      .then([created]);
    spec
      .given([created])
      .when({ type: 'CreatePasswordConnection', data: { ...scope, settings: {} } })
      .thenFails({ kind: 'error', code: 'password_connection_already_exists' });
  });

  it('is updated field by field, created by an update when absent, and unchanged by an update that changes nothing', () => {
    spec
      .given([created])
      .when({ type: 'UpdatePasswordConnection', data: { ...scope, settings: { active: false } } })
      .then([
        {
          type: 'PasswordConnectionUpdated',
          data: {
            id: connectionId,
            ...defaultPasswordConnection,
            plain_text_min_length: 10,
            active: false,
            organization_id: acmeId,
            environment: 'sandbox',
            organization_domain: 'acme',
            at,
          },
        },
      ]);
    spec
      .given([])
      .when({ type: 'UpdatePasswordConnection', data: { ...scope, settings: { plain_text_min_length: 10 } } })
      .then([created]);
    spec
      .given([created])
      .when({ type: 'UpdatePasswordConnection', data: { ...scope, settings: { plain_text_min_length: 10 } } })
      .thenNothingHappens();
  });

  it('carries the id of the connection in its events (webhooks publish it), and keeps it out of the settings', () => {
    const [event] = passwordConnectionDecider.decide(
      { type: 'CreatePasswordConnection', data: { ...scope, settings: {} } },
      passwordConnectionDecider.initialState(),
    );
    expect(event?.data).toMatchObject({ id: connectionId });
    expect(passwordConnectionDecider.evolve(passwordConnectionDecider.initialState(), created)).not.toHaveProperty('id');
  });

  it('wants the minimum length lower than the maximum', () =>
    spec
      .given([created])
      .when({
        type: 'UpdatePasswordConnection',
        data: { ...scope, settings: { plain_text_min_length: 50, plain_text_max_length: 40 } },
      })
      .thenFails({ kind: 'fields', fields: { plain_text_min_length: ['must be lower than plain_text_max_length'] } }));

  describe('when its organization is deleted', () => {
    const deletedAt = '2026-01-02T00:00:00.000Z';
    const later = '2026-01-03T00:00:00.000Z';
    const deletion = { reason: 'organization_deleted' as const, organization_deleted_at: deletedAt, at: later };
    const remove: PasswordConnectionCommand = {
      type: 'DeletePasswordConnection',
      data: { ...deletion, organization_id: acmeId },
    };
    const deleted: PasswordConnectionEvent = {
      type: 'PasswordConnectionDeleted',
      data: {
        organization_id: acmeId,
        environment: 'sandbox',
        organization_domain: 'acme',
        reason: 'organization_deleted',
        at: later,
      },
    };
    const recreated: PasswordConnectionEvent = {
      type: 'PasswordConnectionCreated',
      data: { ...defaultPasswordConnection, plain_text_min_length: 10, ...scope, organization_id: recreatedAcmeId, at: later },
    };
    /** As stored before connections named their organization. */
    const { organization_id: _id, ...legacyData } = created.data as typeof created.data & { organization_id: string };
    const legacy: PasswordConnectionEvent = { type: 'PasswordConnectionCreated', data: legacyData };

    it('removes the connection of the deleted organization, back to the defaults', () => {
      spec.given([created]).when(remove).then([deleted]);
      spec
        .given([created, { type: 'PasswordConnectionUpdated', data: { ...defaultPasswordConnection, at: later } }])
        .when(remove)
        .then([deleted]);
    });

    it('removes a connection recorded before connections named their organization (its domain’s), whatever deletion it is', () => {
      const { organization_id: _owner, ...unnamed } = (deleted as { data: object }).data as typeof deleted.data;
      spec
        .given([legacy])
        .when(remove)
        .then([{ type: 'PasswordConnectionDeleted', data: unnamed }]);
      spec
        .given([legacy])
        .when({ type: 'DeletePasswordConnection', data: { ...deletion, organization_id: null } })
        .then([{ type: 'PasswordConnectionDeleted', data: unnamed }]);
    });

    it('does nothing again on a redelivered deletion, nor without a connection', () => {
      spec.given([created, deleted]).when(remove).then([]);
      spec.given([]).when(remove).then([]);
    });

    it('leaves alone the connection of an organization of the same domain created after it (another id), however late it arrives', () => {
      spec.given([recreated]).when(remove).then([]);
      spec.given([created, deleted, recreated]).when(remove).then([]);
      // Even one recreated at an earlier instant than the deletion: the clock does not decide.
      spec
        .given([{ ...recreated, data: { ...recreated.data, at } }])
        .when(remove)
        .then([]);
    });

    it('lets a new connection of the same organization start clean', () =>
      spec
        .given([created, deleted])
        .when({ type: 'CreatePasswordConnection', data: { ...scope, settings: { plain_text_min_length: 10 } } })
        .then([created]));
  });
});

describe('password attempts', () => {
  const spec = deciderSpecification(passwordAttemptsDecider);
  const failed = (second: number) => ({
    type: 'PasswordChallengeFailed' as const,
    data: { at: new Date(Date.parse(at) + second * 1_000).toISOString() },
  });
  const fold = (count: number) =>
    Array.from({ length: count }, (_, n) => failed(n)).reduce(
      passwordAttemptsDecider.evolve,
      passwordAttemptsDecider.initialState(),
    );

  it('counts failures, records every success and forgets the failures after one', () => {
    spec
      .given([])
      .when({ type: 'RecordPasswordFailure', data: { at } })
      .then([{ type: 'PasswordChallengeFailed', data: { at } }]);
    spec
      .given([failed(0)])
      .when({ type: 'RecordPasswordSuccess', data: { at } })
      .then([{ type: 'PasswordChallengeSucceeded', data: { at } }]);
    spec
      .given([])
      .when({ type: 'RecordPasswordSuccess', data: { at } })
      .then([{ type: 'PasswordChallengeSucceeded', data: { at } }]);
  });

  it('refuses to record an outcome, success included, at a time the schedule does not allow an attempt', () => {
    const threeFailures = [failed(0), failed(1), failed(2)];
    const tooSoon = new Date(Date.parse(at) + 2_500).toISOString();
    spec
      .given(threeFailures)
      .when({ type: 'RecordPasswordFailure', data: { at: tooSoon } })
      .thenFails(attemptTooSoon);
    spec
      .given(threeFailures)
      .when({ type: 'RecordPasswordSuccess', data: { at: tooSoon } })
      .thenFails(attemptTooSoon);
    const allowed = new Date(Date.parse(at) + 3_000).toISOString();
    spec
      .given(threeFailures)
      .when({ type: 'RecordPasswordFailure', data: { at: allowed } })
      .then([{ type: 'PasswordChallengeFailed', data: { at: allowed } }]);
  });

  it('delays attempts after three failures, doubling the delay, and locks after ten for fifteen minutes', () => {
    expect(nextAttemptAt(fold(2))).toBe(0);
    expect(nextAttemptAt(fold(3))).toBe(Date.parse(at) + 2_000 + 1_000);
    expect(nextAttemptAt(fold(5))).toBe(Date.parse(at) + 4_000 + 4_000);
    expect(nextAttemptAt(fold(9))).toBe(Date.parse(at) + 8_000 + 60_000);
    expect(nextAttemptAt(fold(10))).toBe(Date.parse(at) + 9_000 + 15 * 60_000);
    expect(
      nextAttemptAt(
        [
          ...Array.from({ length: 10 }, (_, n) => failed(n)),
          { type: 'PasswordChallengeSucceeded' as const, data: { at } },
        ].reduce(passwordAttemptsDecider.evolve, passwordAttemptsDecider.initialState()),
      ),
    ).toBe(0);
  });
});

describe('password code', () => {
  const spec = deciderSpecification(passwordCodeDecider);
  const issued: PasswordCodeEvent = {
    type: 'PasswordCodeIssued',
    data: {
      code_hash: 'h',
      reason: 'reset',
      request_id: 'r',
      user_id: 'u',
      environment: 'sandbox',
      organization_domain: 'acme',
      redirect_uri: 'https://app.acme.com/reset',
      expires_at: '2026-01-01T01:00:00.000Z',
      at,
    },
  };
  const use = (when: string) => ({ type: 'UsePasswordCode' as const, data: { at: when } });
  const unknown = { kind: 'error' as const, code: 'unknown_password_code' as const };

  it('is used once before it expires', () => {
    spec
      .given([issued])
      .when(use('2026-01-01T00:30:00.000Z'))
      .then([{ type: 'PasswordCodeUsed', data: { at: '2026-01-01T00:30:00.000Z' } }]);
    spec
      .given([issued, { type: 'PasswordCodeUsed', data: { at } }])
      .when(use(at))
      .thenFails(unknown);
    spec.given([issued]).when(use('2026-01-01T01:00:00.000Z')).thenFails(unknown);
    spec.given([]).when(use(at)).thenFails(unknown);
  });
});

describe('password', () => {
  const spec = deciderSpecification(passwordDecider);
  const hash = { hash: '$argon2id$h', pepper_kid: 'p1', pepper_epoch: 1 };
  const password = (password_id: string) => ({
    ...hash,
    password_id,
    user_id: 'u',
    environment: 'sandbox' as const,
    organization_domain: 'acme',
    at,
  });
  const set = (password_id: string, may_replace = true) => ({
    type: 'SetPassword' as const,
    data: { ...password(password_id), may_replace },
  });
  const first = { type: 'PasswordSet' as const, data: { ...password('p-1'), previous_password_id: null } };

  it("names the password a new one replaces, so that a change is told from a user's first password", () => {
    spec.given([]).when(set('p-1')).then([first]);
    spec
      .given([first])
      .when(set('p-2'))
      .then([{ type: 'PasswordSet', data: { ...password('p-2'), previous_password_id: 'p-1' } }]);
  });

  it('sets a first password for any caller, and replaces one in place only for a caller that may (401 otherwise)', () => {
    spec.given([]).when(set('p-1', false)).then([first]);
    spec.given([first]).when(set('p-2', false)).thenFails({ kind: 'error', code: 'unauthorized' });
  });
});
