import { createPasswordHandler, issuePasswordCode } from './password-sign-in.handlers';
import { passwordKit } from './password.spec-kit';

describe('setting a password', () => {
  it('asks the breach service about a password the shipped lists accept, when one is configured', async () => {
    const kit = await passwordKit();
    kit.addUser('ada@acme.com');
    const asked: string[] = [];
    kit.env.breachRange = { isBreached: async (plainText) => (asked.push(plainText), plainText.startsWith('leaked')) };
    const set = createPasswordHandler(kit.env);
    const body = (plain_text: string) => ({ body: { org_domain: 'acme', user_email: 'ada@acme.com', plain_text } }) as never;
    await expect(set(body('leaked purple elephants at noon'), kit.context)).rejects.toMatchObject({
      error: { kind: 'fields', fields: { plain_text: ['has appeared in a data breach'] } },
    });
    expect(await set(body('quiet purple elephants at noon'), kit.context)).toMatchObject({ ok: true, status: 201 });
    await expect(set(body('password123'), kit.context)).rejects.toMatchObject({
      error: { fields: { plain_text: ['is among the most common passwords'] } },
    });
    expect(asked).toEqual(['leaked purple elephants at noon', 'quiet purple elephants at noon']);
  });

  it('marks the email verified when the password is set with a reset code, not with a renewal code', async () => {
    const kit = await passwordKit();
    const set = createPasswordHandler(kit.env);
    const withCode = (password_code: string) =>
      ({ body: { password_code, plain_text: 'quiet purple elephants at noon' } }) as never;

    const renewing = kit.addUser('grace@acme.com', { email_verified: false });
    const renewal = await issuePasswordCode(kit.env, renewing, 'renew', null, kit.context);
    expect(await set(withCode(renewal.code), kit.context)).toMatchObject({ ok: true, status: 201 });
    expect(kit.users.get(renewing.id)?.email_verified).toBe(false);
    expect(kit.modified).toEqual([]);

    const resetting = kit.addUser('ada@acme.com', { email_verified: false });
    const reset = await issuePasswordCode(kit.env, resetting, 'reset', 'https://app.acme.com/reset', kit.context);
    expect(await set(withCode(reset.code), kit.context)).toMatchObject({ ok: true, status: 201 });
    expect(kit.users.get(resetting.id)?.email_verified).toBe(true);
    expect(kit.modified).toEqual([
      { organization_domain: 'acme', environment: 'sandbox', id: resetting.id, email_verified: true },
    ]);

    // Already verified: identity is not asked again.
    const again = await issuePasswordCode(kit.env, kit.users.get(resetting.id) as never, 'reset', null, kit.context);
    expect(await set(withCode(again.code), kit.context)).toMatchObject({ ok: true, status: 201 });
    expect(kit.modified).toHaveLength(1);
  });
});
