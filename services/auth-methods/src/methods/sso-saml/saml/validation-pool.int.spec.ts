import { join } from 'node:path';
import type { TestIdp } from '../../../../../../test/support/saml-idp';
import { validateSamlResponse } from './response-validator';
import type { ResponseExpectations } from './response-validator';
import { ValidationPool } from './validation-pool';
import { testSp as sp, validationKit } from './validation.spec-kit';

/** The pool runs the built worker (`npm run build` comes before the int tier). */
const workerFile = join(__dirname, '../../../../dist/methods/sso-saml/saml/validation-worker.js');

describe('SAML validation pool (worker threads)', () => {
  let idp: TestIdp;
  let expected: ResponseExpectations;
  let pool: ValidationPool;
  beforeAll(async () => {
    ({ idp, expected } = await validationKit());
    pool = new ValidationPool(workerFile, 2);
  });
  afterAll(() => pool.close());
  const signed = (nameId: string) => idp.signedResponseXml(sp, { nameId, inResponseTo: '_req1' });

  it('answers what validateSamlResponse answers in the service thread, accepted and refused alike', async () => {
    const valid = signed('ada@acme.com');
    const misaddressed = idp.signedResponseXml(sp, {
      nameId: 'ada@acme.com',
      inResponseTo: '_req1',
      tags: { Destination: 'https://evil.test/acs' },
    });
    for (const xml of [valid, misaddressed, '<not-saml/>']) {
      expect(await pool.validate(xml, expected)).toEqual(validateSamlResponse(xml, expected));
    }
    expect(await pool.validate(valid, expected)).toMatchObject({ ok: true, assertion: { name_id: 'ada@acme.com' } });
  });

  it('answers each of many concurrent calls with its own result, across threads', async () => {
    const names = Array.from({ length: 20 }, (_, index) => `user${index}@acme.com`);
    const results = await Promise.all(names.map((name) => pool.validate(signed(name), expected)));
    expect(results.map((result) => (result.ok ? result.assertion.name_id : result.reason))).toEqual(names);
  });

  it('refuses calls once closed', async () => {
    const closing = new ValidationPool(workerFile, 1);
    await closing.close();
    await expect(closing.validate(signed('ada@acme.com'), expected)).rejects.toThrow('SAML validation pool is closed');
  });
});
