import { DomainError } from '@sesame/platform';
import { applyPatchOp, coerceIncoming, scimSchemaUrns } from './scim-schemas';

const user = { schemas: [scimSchemaUrns.User], userName: 'ada', id: 'u1' };
const patch = (...Operations: unknown[]) => applyPatchOp('User', user, { schemas: [scimSchemaUrns.PatchOp], Operations });
const refusal = (op: string, index = 1) => ({
  error: {
    kind: 'scim',
    status: 400,
    scimType: 'mutability',
    detail: `Attribute 'groups' is readOnly and cannot be changed by '${op}' op of operation ${index} in PatchOp request body`,
  },
});

describe("a user's readOnly groups (RFC 7644 sections 3.3, 3.5.1, 3.5.2)", () => {
  it('are ignored in a POST or PUT body', () => {
    expect(coerceIncoming('User', { ...user, groups: [{ value: 'g1', display: 'Admins' }] })).toEqual({
      schemas: [scimSchemaUrns.User],
      userName: 'ada',
    });
  });

  it.each([
    [{ op: 'add', path: 'groups', value: [{ value: 'g1' }] }],
    [{ op: 'Replace', path: 'GROUPS', value: [{ value: 'g1' }] }],
    [{ op: 'remove', path: 'groups' }],
    [{ op: 'remove', path: 'groups[value eq "g1"]' }],
    [{ op: 'replace', path: 'groups.display', value: 'x' }],
    [{ op: 'add', path: `${scimSchemaUrns.User}:groups`, value: [{ value: 'g1' }] }],
    [{ op: 'add', value: { displayName: 'Ada', groups: [{ value: 'g1' }] } }],
  ])('refuse a PATCH that targets them with 400 mutability: %j', async (operation) => {
    await expect(patch(operation)).rejects.toMatchObject(refusal(operation.op));
  });

  it('name the operation that targets them, and let the others through', async () => {
    await expect(
      patch({ op: 'replace', path: 'displayName', value: 'Ada' }, { op: 'add', path: 'groups', value: [] }),
    ).rejects.toMatchObject(refusal('add', 2));
    await expect(patch({ op: 'replace', path: 'displayName', value: 'Ada' })).resolves.toEqual({
      schemas: [scimSchemaUrns.User],
      userName: 'ada',
      displayName: 'Ada',
    });
  });

  it("answer as a PATCH of the readOnly `id` does (scimmy's refusal)", async () => {
    await expect(patch({ op: 'replace', path: 'id', value: 'x' })).rejects.toMatchObject({
      error: { status: 400, scimType: 'mutability' },
    });
    await expect(patch({ op: 'replace', path: 'id', value: 'x' })).rejects.toBeInstanceOf(DomainError);
  });
});
