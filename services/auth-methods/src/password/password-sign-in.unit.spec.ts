import { createPasswordHandler } from './password-sign-in.handlers';
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
});
