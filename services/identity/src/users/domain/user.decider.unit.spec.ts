import { erasureEmailHash } from '@sesame/platform';
import { deciderSpecification } from '@sesame/platform/testing';
import type { User, UserEvent } from '@sesame/contracts';
import { userDecider } from './user.decider';
import type { Tenant, UserCommand } from './user.decider';
import type { MetakeyRules } from './user-fields';

const spec = deciderSpecification(userDecider);
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const id = '6f1f3c1e-5a43-4d1e-9a55-3f6b7d1c2e4f';
const tenant: Tenant = {
  organization_id: 'org-1',
  organization_domain: 'acme',
  allowed_email_domains: [],
  environment: 'sandbox',
};
const strict: Tenant = { ...tenant, allowed_email_domains: ['acme.com'] };
const noKeys: MetakeyRules = {};

const create = (
  fields: Partial<Extract<UserCommand, { type: 'CreateUser' }>['data']['fields']> = {},
  metakeys = noKeys,
  t = tenant,
): UserCommand => ({
  type: 'CreateUser',
  data: { id, tenant: t, fields: { email: 'ada@acme.com', ...fields }, metakeys, source: 'api', at },
});
const created = (): UserEvent => userDecider.decide(create(), userDecider.initialState())[0] as UserEvent;
const user = (): User => (created() as Extract<UserEvent, { type: 'UserCreated' }>).data.user;
const update = (
  fields: Extract<UserCommand, { type: 'UpdateUser' }>['data']['fields'],
  extra: Partial<Extract<UserCommand, { type: 'UpdateUser' }>['data']> = {},
): UserCommand => ({
  type: 'UpdateUser',
  data: { tenant, fields, metakeys: noKeys, at: later, ...extra },
});
const fieldsError = (fields: Record<string, string[]>) => ({ kind: 'fields' as const, fields });
const notFound = { kind: 'error' as const, code: 'resource_not_found' as const };

describe('user decider', () => {
  describe('CreateUser', () => {
    it('creates a user with defaults, in the tenant of the command', () => {
      spec
        .given([])
        .when(create())
        .then([
          {
            type: 'UserCreated',
            data: {
              organization_domain: 'acme',
              organization_id: 'org-1',
              environment: 'sandbox',
              at,
              source: 'api',
              profile_owners: {},
              user: expect.objectContaining({
                __type__: 'User',
                __domain__: 'acme',
                __environment__: 'sandbox',
                id,
                active: true,
                email: 'ada@acme.com',
                email_verified: false,
                phone_number: null,
                phone_numbers: [],
                identities: [],
                metadata: {},
                inserted_at: at,
                updated_at: at,
              }),
            },
          },
        ]);
    });

    it('refuses an id already used', () => {
      spec
        .given([created()])
        .when(create())
        .thenFails({ ...fieldsError({ id: ['has already been taken'] }), reason: 'taken' });
    });

    it("refuses an email outside the organization's allowed domains and accepts one inside, whatever its case", () => {
      spec
        .given([])
        .when(create({ email: 'eve@evil.com' }, noKeys, strict))
        .thenFails(
          fieldsError({ email: ["must belong to one of the organization's allowed email domains (acme.com), not evil.com"] }),
        );
      expect(userDecider.decide(create({ email: 'Ada@ACME.com' }, noKeys, strict), userDecider.initialState())).toHaveLength(1);
    });

    it('derives phone number parts and makes the first number primary when none is', () => {
      const [event] = userDecider.decide(
        create({ phone_numbers: [{ value: '+33612345678' }, { value: '+14155552671' }] }),
        userDecider.initialState(),
      );
      expect((event as Extract<UserEvent, { type: 'UserCreated' }>).data.user.phone_numbers).toEqual([
        { phone_country_code: '33', phone_national_number: '612345678', primary: true, value: '+33612345678' },
        { phone_country_code: '1', phone_national_number: '4155552671', primary: false, value: '+14155552671' },
      ]);
    });

    it('makes a lone phone_number the primary entry of phone_numbers, and follows its changes', () => {
      const [event] = userDecider.decide(create({ phone_number: '+33612345678' }), userDecider.initialState());
      const first = (event as Extract<UserEvent, { type: 'UserCreated' }>).data.user;
      expect(first.phone_numbers).toEqual([
        { phone_country_code: '33', phone_national_number: '612345678', primary: true, value: '+33612345678' },
      ]);
      const [changed] = userDecider.decide(
        update({ email: 'ada@acme.com', phone_number: '+14155552671' }),
        fold([event as UserEvent]),
      );
      expect((changed as Extract<UserEvent, { type: 'UserUpdated' }>).data.user.phone_numbers).toEqual([
        { phone_country_code: '1', phone_national_number: '4155552671', primary: true, value: '+14155552671' },
      ]);
      const [cleared] = userDecider.decide(update({ email: 'ada@acme.com', phone_number: null }), fold([event as UserEvent]));
      expect((cleared as Extract<UserEvent, { type: 'UserUpdated' }>).data.user).toMatchObject({
        phone_number: null,
        phone_numbers: [],
      });
    });

    it('requires every required user metakey, converts typed values and leaves unregistered keys free', () => {
      const rules: MetakeyRules = {
        seats: { type: 'integer', required: true, locked: false },
        vip: { type: 'boolean', required: false, locked: false },
      };
      spec
        .given([])
        .when(create({}, rules))
        .thenFails(fieldsError({ 'metadata.seats': ["can't be blank"] }));
      spec
        .given([])
        .when(create({ metadata: { seats: null } }, rules))
        .thenFails(fieldsError({ 'metadata.seats': ["can't be blank"] }));
      spec
        .given([])
        .when(create({ metadata: { seats: 'x' } }, rules))
        .thenFails(fieldsError({ 'metadata.seats': ['must be an integer'] }));
      const [event] = userDecider.decide(
        create({ metadata: { seats: '12', vip: 'true', free: 'text' } }, rules),
        userDecider.initialState(),
      );
      expect((event as Extract<UserEvent, { type: 'UserCreated' }>).data.user.metadata).toEqual({
        seats: 12,
        vip: true,
        free: 'text',
      });
    });

    it('does not require a key being deleted but refuses writing to it', () => {
      const rules: MetakeyRules = { legacy: { type: 'string', required: true, locked: true } };
      expect(userDecider.decide(create({}, rules), userDecider.initialState())).toHaveLength(1);
      spec
        .given([])
        .when(create({ metadata: { legacy: 'x' } }, rules))
        .thenFails(
          fieldsError({
            'metadata.legacy': ['is locked: this user metakey is being deleted; try again once its deletion has finished'],
          }),
        );
    });
  });

  describe('UpdateUser', () => {
    it('changes the given fields only, merging profile and address, and says what changed', () => {
      spec
        .given([created()])
        .when(update({ email: 'ada@acme.com', profile: { given_name: 'Ada' }, address: { locality: 'London' } }))
        .then([
          {
            type: 'UserUpdated',
            data: expect.objectContaining({
              changes: { profile: { ...user().profile, given_name: 'Ada' }, address: { ...user().address, locality: 'London' } },
              previous_values: { profile: user().profile, address: user().address },
              user: expect.objectContaining({ updated_at: later, inserted_at: at }),
            }),
          },
        ]);
    });

    it('emits nothing when nothing changes', () => {
      spec
        .given([created()])
        .when(update({ email: 'ada@acme.com', profile: { given_name: null } }))
        .thenNothingHappens();
    });

    it('refuses another id and accepts the same one', () => {
      spec
        .given([created()])
        .when(update({ email: 'ada@acme.com' }, { requested_id: 'other' }))
        .thenFails(fieldsError({ id: ["can't be changed"] }));
      spec
        .given([created()])
        .when(update({ email: 'ada@acme.com' }, { requested_id: id }))
        .thenNothingHappens();
    });

    it('answers not found for an unknown or deleted user, and for another tenant', () => {
      spec
        .given([])
        .when(update({ email: 'a@acme.com' }))
        .thenFails(notFound);
      const deleted: UserEvent = { type: 'UserDeleted', data: { ...tenantData(), user: user(), reason: 'api' } };
      spec
        .given([created(), deleted])
        .when(update({ email: 'a@acme.com' }))
        .thenFails(notFound);
      spec
        .given([created()])
        .when(update({ email: 'a@acme.com' }, { tenant: { ...tenant, environment: 'production' } }))
        .thenFails(notFound);
      spec
        .given([created()])
        .when(update({ email: 'a@acme.com' }, { tenant: { ...tenant, organization_id: 'org-2' } }))
        .thenFails(notFound);
    });

    it('checks a new email against the allowed domains', () => {
      spec
        .given([created()])
        .when(update({ email: 'eve@evil.com' }, { tenant: strict }))
        .thenFails(
          fieldsError({ email: ["must belong to one of the organization's allowed email domains (acme.com), not evil.com"] }),
        );
    });

    it('refuses dropping a required key a user holds', () => {
      const rules: MetakeyRules = { seats: { type: 'integer', required: true, locked: false } };
      const holder = userDecider.decide(create({ metadata: { seats: 1 } }, rules), userDecider.initialState());
      spec
        .given(holder)
        .when(update({ email: 'ada@acme.com', metadata: {} }, { metakeys: rules }))
        .thenFails(fieldsError({ 'metadata.seats': ["can't be blank"] }));
    });

    it('refuses editing a profile attribute an identity provider owns, and allows it when the value is unchanged', () => {
      const identity: UserEvent = recorded({ given_name: 'Okta' }, false);
      spec
        .given([created(), identity])
        .when(update({ email: 'ada@acme.com', profile: { given_name: 'Mine' } }))
        .thenFails(
          fieldsError({
            'profile.given_name': [
              'is managed by the identity provider saml.okta, which refreshes it at each sign-in: change it there (or set its connection to update profiles only at creation)',
            ],
          }),
        );
      spec
        .given([created(), identity])
        .when(update({ email: 'ada@acme.com', profile: { given_name: 'Okta' } }))
        .thenNothingHappens();
    });
  });

  describe('metadata', () => {
    const rules: MetakeyRules = {
      seats: { type: 'integer', required: true, locked: false },
      old: { type: 'string', required: false, locked: true },
    };
    const add = (key: string, value: unknown): UserCommand => ({
      type: 'AddUserMetadata',
      data: { tenant, key, value, metakeys: rules, at: later },
    });
    const remove = (key: string): UserCommand => ({
      type: 'RemoveUserMetadata',
      data: { tenant, key, metakeys: rules, at: later },
    });
    const holder = () => userDecider.decide(create({ metadata: { seats: 2, note: 'n' } }, rules), userDecider.initialState());

    it('adds a value converted to the key type', () => {
      spec
        .given(holder())
        .when(add('seats', '5'))
        .then([
          {
            type: 'UserUpdated',
            data: expect.objectContaining({
              changes: { metadata: { seats: 5, note: 'n' } },
              previous_values: { metadata: { seats: 2, note: 'n' } },
            }),
          },
        ]);
    });

    it('refuses a value of the wrong type and a locked key', () => {
      spec
        .given(holder())
        .when(add('seats', true))
        .thenFails(fieldsError({ 'metadata.seats': ['must be an integer'] }));
      spec
        .given(holder())
        .when(add('old', 'x'))
        .thenFails(
          fieldsError({
            'metadata.old': ['is locked: this user metakey is being deleted; try again once its deletion has finished'],
          }),
        );
      spec
        .given(holder())
        .when(remove('old'))
        .thenFails(
          fieldsError({ key: ['is locked: this user metakey is being deleted; try again once its deletion has finished'] }),
        );
    });

    it('removes a value, refuses removing a required one, and does nothing for an absent one', () => {
      spec
        .given(holder())
        .when(remove('note'))
        .then([{ type: 'UserUpdated', data: expect.objectContaining({ changes: { metadata: { seats: 2 } } }) }]);
      spec
        .given(holder())
        .when(remove('seats'))
        .thenFails(fieldsError({ key: ['is a required user metakey and cannot be removed'] }));
      spec.given(holder()).when(remove('absent')).thenNothingHappens();
    });

    it('purges the values of a key being deleted, bypassing its lock', () => {
      const withOld = userDecider.decide(
        create({ metadata: { old: 'x' } }, { old: { type: 'string', required: false, locked: false } }),
        userDecider.initialState(),
      );
      spec
        .given(withOld)
        .when({ type: 'PurgeUserMetadataKey', data: { key: 'old', at: later } })
        .then([{ type: 'UserUpdated', data: expect.objectContaining({ changes: { metadata: {} } }) }]);
      spec
        .given(holder())
        .when({ type: 'PurgeUserMetadataKey', data: { key: 'old', at: later } })
        .thenNothingHappens();
      spec
        .given([])
        .when({ type: 'PurgeUserMetadataKey', data: { key: 'old', at: later } })
        .thenNothingHappens();
    });
  });

  describe('RecordIdentity', () => {
    it('adds the identity and takes ownership of the attributes the provider sends', () => {
      const [event] = userDecider.decide(recordCommand({ given_name: 'Okta' }, false), fold([created()]));
      expect(event).toMatchObject({
        type: 'UserIdentityRecorded',
        data: { profile_owners: { given_name: 'saml.okta' }, user: { profile: { given_name: 'Okta' }, identities: [okta] } },
      });
    });

    it('replaces the identity of the same provider and id on the next sign-in and refreshes the attributes', () => {
      const [event] = userDecider.decide(
        recordCommand({ given_name: 'New' }, false, { ...okta, authenticated_at: 2 }),
        fold([created(), recorded({ given_name: 'Old' }, false)]),
      );
      expect((event as Extract<UserEvent, { type: 'UserIdentityRecorded' }>).data.user).toMatchObject({
        identities: [{ ...okta, authenticated_at: 2 }],
        profile: { given_name: 'New' },
      });
    });

    it('with updates at creation only: fills empty attributes at the first sign-in, then never again, and owns nothing', () => {
      const first = userDecider.decide(
        recordCommand({ given_name: 'Okta', family_name: 'X' }, true),
        fold([created()]),
      )[0] as Extract<UserEvent, { type: 'UserIdentityRecorded' }>;
      expect(first.data.profile_owners).toEqual({});
      expect(first.data.user.profile).toMatchObject({ given_name: 'Okta', family_name: 'X' });
      const second = userDecider.decide(recordCommand({ given_name: 'Changed' }, true), fold([created(), first]))[0] as Extract<
        UserEvent,
        { type: 'UserIdentityRecorded' }
      >;
      expect(second.data.user.profile.given_name).toBe('Okta');
    });
  });

  describe('DeactivateUser and DeleteUser', () => {
    it('deactivates once', () => {
      spec
        .given([created()])
        .when({ type: 'DeactivateUser', data: { tenant, at: later } })
        .then([
          {
            type: 'UserDeactivated',
            data: expect.objectContaining({ changes: { active: false }, previous_values: { active: true } }),
          },
        ]);
      const inactive = userDecider.decide({ type: 'DeactivateUser', data: { tenant, at: later } }, fold([created()]));
      spec
        .given([created(), ...inactive])
        .when({ type: 'DeactivateUser', data: { tenant, at: later } })
        .thenNothingHappens();
    });

    it('deletes once, with its reason', () => {
      spec
        .given([created()])
        .when({ type: 'DeleteUser', data: { tenant, reason: 'scim', at: later } })
        .then([{ type: 'UserDeleted', data: { ...tenantData(later), user: user(), reason: 'scim' } }]);
      spec
        .given([])
        .when({ type: 'DeleteUser', data: { tenant, reason: 'api', at: later } })
        .thenFails(notFound);
    });
  });

  describe('EraseUser', () => {
    const erase = (t = tenant): UserCommand => ({ type: 'EraseUser', data: { tenant: t, pseudonym: 'erased-1', at: later } });
    const erased = (): UserEvent => ({
      type: 'UserErased',
      data: { ...tenantData(later), user_id: id, pseudonym: 'erased-1', email_hashes: [erasureEmailHash(id, 'ADA@acme.com ')] },
    });
    const deleted: UserEvent = { type: 'UserDeleted', data: { ...tenantData(later), user: user(), reason: 'api' } };

    it('deletes a live user and records the erasure in the same commit, naming the email only by its keyed hash', () => {
      spec.given([created()]).when(erase()).then([deleted, erased()]);
      expect(JSON.stringify(erased())).not.toContain('ada@acme.com');
    });

    it('erases a user deleted already, without a second deletion', () => {
      spec.given([created(), deleted]).when(erase()).then([erased()]);
    });

    it('records an erasure once: erasing again changes nothing, and the state keeps the first pseudonym', () => {
      spec.given([created(), deleted, erased()]).when(erase()).thenNothingHappens();
      expect(fold([created(), deleted, erased()])).toMatchObject({
        status: 'deleted',
        erased: { pseudonym: 'erased-1', at: later },
      });
    });

    it('refuses an unknown user, one of another organization and one of the other environment (404)', () => {
      spec.given([]).when(erase()).thenFails(notFound);
      spec
        .given([created()])
        .when(erase({ ...tenant, organization_id: 'org-2' }))
        .thenFails(notFound);
      spec
        .given([created()])
        .when(erase({ ...tenant, environment: 'production' }))
        .thenFails(notFound);
    });
  });
});

const okta = { provider: 'saml.okta', idp_id: 'okta-1', authenticated_at: 1, data: {} };
function tenantData(when = at) {
  return { organization_domain: 'acme', organization_id: 'org-1', environment: 'sandbox' as const, at: when };
}
function recordCommand(profile: Record<string, string>, onlyAtCreation: boolean, identity = okta): UserCommand {
  return {
    type: 'RecordIdentity',
    data: { tenant, identity, profile, update_profile_only_at_creation: onlyAtCreation, at: later },
  };
}
function fold(events: UserEvent[]) {
  return events.reduce(userDecider.evolve, userDecider.initialState());
}
function recorded(profile: Record<string, string>, onlyAtCreation: boolean): UserEvent {
  return userDecider.decide(recordCommand(profile, onlyAtCreation), fold([created()]))[0] as UserEvent;
}
