import { catalogueError, fieldError, refusedField } from '@sesame/contracts';
import { DomainError, RpcRefusal } from '@sesame/platform';
import { scimErrorOf } from './user-provisioning';

describe("identity's refusals in SCIM terms", () => {
  it('a taken value is 409 uniqueness, by its reason code', () =>
    expect(scimErrorOf(new RpcRefusal(refusedField('email', 'taken')))).toEqual(
      new DomainError({ kind: 'scim', status: 409, scimType: 'uniqueness', detail: 'email has already been taken' }),
    ));

  it('other field errors are 400 invalidValue, naming every field', () =>
    expect(
      (
        scimErrorOf(
          new RpcRefusal({ kind: 'fields', fields: { email: ['invalid_format'], phone_number: ['is invalid'] } }),
        ) as DomainError
      ).error,
    ).toEqual({ kind: 'scim', status: 400, scimType: 'invalidValue', detail: 'email invalid_format; phone_number is invalid' }));

  it("the plan's user limit is 403 without scimType", () =>
    expect((scimErrorOf(new RpcRefusal(catalogueError('user_limit_reached'))) as DomainError).error).toEqual({
      kind: 'scim',
      status: 403,
      detail: "The plan's limit on the number of users is reached: delete users or raise the limit before creating more",
    }));

  it("leaves this service's own errors and other refusals as they are", () => {
    const own = new DomainError(fieldError('email', 'has already been taken'));
    expect(scimErrorOf(own)).toBe(own);
    const gone = new RpcRefusal(catalogueError('resource_not_found'));
    expect(scimErrorOf(gone)).toBe(gone);
  });
});
