import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

/**
 * One error vocabulary for every schema, in the words of SPEC.md section 5 ("can't be blank",
 * "invalid_format", ...). The gateway and the services both produce field errors from it.
 */
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined || issue.input === null) return "can't be blank";
        return `must be ${article(issue.expected)} ${issue.expected}`;
      case 'too_small':
        if (issue.origin === 'string')
          return issue.minimum === 1 ? "can't be blank" : `is too short (minimum is ${issue.minimum} characters)`;
        if (issue.origin === 'array' || issue.origin === 'set')
          return issue.minimum === 1 ? "can't be blank" : `must have at least ${issue.minimum} items`;
        return `must be greater than or equal to ${issue.minimum}`;
      case 'too_big':
        if (issue.origin === 'string') return `is too long (maximum is ${issue.maximum} characters)`;
        if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${issue.maximum} items`;
        return `must be less than or equal to ${issue.maximum}`;
      case 'invalid_format':
        if (issue.format === 'email') return 'invalid_format';
        if (issue.format === 'url') return 'is not a valid URL';
        if (issue.format === 'uuid') return 'is not a valid uuid';
        if (issue.format === 'datetime') return 'is not a valid ISO 8601 date-time';
        return 'is invalid';
      case 'invalid_value':
        return `must be one of: ${issue.values.map((value) => String(value)).join(', ')}`;
      case 'unrecognized_keys':
        return `has unknown fields: ${issue.keys.join(', ')}`;
      case 'not_multiple_of':
        return `must be a multiple of ${String(issue.divisor)}`;
      default:
        return 'is invalid';
    }
  },
});

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

export { z };
