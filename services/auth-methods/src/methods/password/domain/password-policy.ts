import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import type { PasswordConnectionSettings } from '@sesame/contracts';

/** The password lists the policy checks against (lowercase entries). */
export interface PasswordLists {
  common: ReadonlySet<string>;
  breached: ReadonlySet<string>;
}

export const policyMessages = {
  tooShort: (min: number) => `is too short (minimum is ${min} characters)`,
  tooLong: (max: number) => `is too long (maximum is ${max} characters)`,
  common: 'is among the most common passwords',
  breached: 'has appeared in a data breach',
  weak: 'is too weak: it would be guessed quickly',
} as const;

/** Lowest zxcvbn score accepted (0 to 4; 3: "safely unguessable", about 10^8 guesses and more). */
const minimumScore = 3;
const zxcvbn = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });

/**
 * Why a password is refused (the messages of the `plain_text` field error), first failing rule
 * first: length out of the connection's bounds, among the most common passwords, seen in a
 * breach, or else weak (zxcvbn, with the user's email as a known input). Empty: accepted.
 */
export function passwordProblems(
  plainText: string,
  connection: Pick<PasswordConnectionSettings, 'plain_text_min_length' | 'plain_text_max_length'>,
  lists: PasswordLists,
  userInputs: string[] = [],
  /** False at sign-in: the strength estimate (milliseconds of CPU) cannot change after the password was set. */
  checkStrength = true,
): string[] {
  const length = [...plainText].length;
  if (length < connection.plain_text_min_length) return [policyMessages.tooShort(connection.plain_text_min_length)];
  if (length > connection.plain_text_max_length) return [policyMessages.tooLong(connection.plain_text_max_length)];
  const problems: string[] = [];
  const lowered = plainText.toLowerCase();
  if (lists.common.has(lowered)) problems.push(policyMessages.common);
  else if (lists.breached.has(lowered)) problems.push(policyMessages.breached);
  if (problems.length > 0 || !checkStrength) return problems;
  const inputs = userInputs.flatMap((input) => [input, ...input.split(/[@.+_-]/)]).filter((part) => part.length > 2);
  if (zxcvbn.check(plainText.slice(0, 256), inputs).score < minimumScore) problems.push(policyMessages.weak);
  return problems;
}
