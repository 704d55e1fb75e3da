import { passwordLists } from '../password-lists';
import { passwordProblems, policyMessages } from './password-policy';

const connection = { plain_text_min_length: 10, plain_text_max_length: 40 };
const lists = passwordLists();
const check = (plainText: string, inputs: string[] = []) => passwordProblems(plainText, connection, lists, inputs);

describe('password policy', () => {
  it('ships at least 10,000 common passwords and a breached-password list', () => {
    expect(lists.common.size).toBeGreaterThanOrEqual(10_000);
    expect(lists.breached.size).toBeGreaterThanOrEqual(99_000);
    expect(lists.common.has('password123')).toBe(true);
  });

  it('accepts a long passphrase', () => {
    expect(check('correct horse battery staple 42')).toEqual([]);
  });

  it('refuses passwords out of the connection bounds, naming the bound', () => {
    expect(check('Sh0rt!x')).toEqual([policyMessages.tooShort(10)]);
    expect(check('x'.repeat(41))).toEqual([policyMessages.tooLong(40)]);
    expect(policyMessages.tooShort(10)).toBe('is too short (minimum is 10 characters)');
  });

  it('refuses common passwords, whatever their case', () => {
    expect(check('password123')).toEqual(['is among the most common passwords']);
    expect(check('PassWord123')).toEqual(['is among the most common passwords']);
  });

  it('refuses passwords seen in breaches that are not among the most common', () => {
    const breached = [...lists.breached].find((password) => password.length >= 10 && !lists.common.has(password)) as string;
    expect(check(breached)).toEqual(['has appeared in a data breach']);
  });

  it('refuses weak passwords, including ones built on the user email', () => {
    expect(check('aaaaaaaaaaaaaaa')).toEqual([policyMessages.weak]);
    expect(check('ada.lovelace@acme.com', ['ada.lovelace@acme.com'])).toEqual(['is too weak: it would be guessed quickly']);
  });
  it('checks only the rules that can change since the password was set when asked', () => {
    expect(passwordProblems('aaaaaaaaaaaaaaa', connection, lists, [], false)).toEqual([]);
    expect(passwordProblems('password123', connection, lists, [], false)).toEqual(['is among the most common passwords']);
  });
});
