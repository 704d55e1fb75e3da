import { scimError } from '@sesame/contracts';
import type { ScimErrorType } from '@sesame/contracts';
import { fail } from '@sesame/platform';

/** Refuses a SCIM request with an RFC 7644 section 3.12 error. */
export function scimFail(status: number, detail: string, scimType?: ScimErrorType): never {
  fail(scimError(status, detail, scimType));
}

/** scimmy throws `SCIMError`s carrying status and scimType; anything else is a bug. */
export function rethrowScimmyError(error: unknown): never {
  const { status, scimType, message } = error as { status?: unknown; scimType?: ScimErrorType; message?: string };
  if (typeof status === 'number' && status >= 400 && status < 500)
    scimFail(status, message ?? 'Invalid request', scimType ?? 'invalidValue');
  if (error instanceof TypeError) scimFail(400, error.message, 'invalidValue');
  throw error;
}
