/**
 * The error of an API answer that is not a success. Sesame answers one of two documented shapes
 * (`{ error: { type, message, doc_urls } }`, or `{ errors: { field: [messages] } }` with 422), and
 * the token endpoint the OAuth shape (`{ error, error_description }`): all three land here.
 */
export class SesameApiError extends Error {
  override readonly name = 'SesameApiError';

  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The error type (`resource_not_found`, `invalid_grant`...); `invalid_fields` for the field-errors shape. */
    readonly type: string,
    message: string,
    /** Messages per field of a 422 field-errors answer (empty otherwise). */
    readonly fieldErrors: Record<string, string[]>,
    /** Documentation pages about the error. */
    readonly docUrls: string[],
    /** The `X-Correlation-Id` of the answer: quote it to the operator of the Sesame deployment. */
    readonly correlationId: string | undefined,
    /** The parsed body of the answer, as received. */
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The field-errors shape's type. */
export const invalidFieldsType = 'invalid_fields';

type Shape = Pick<SesameApiError, 'type' | 'message' | 'fieldErrors' | 'docUrls'>;

function shapeOf(status: number, body: unknown): Shape {
  const value = (body ?? {}) as Record<string, any>;
  if (value.errors && typeof value.errors === 'object') {
    const fieldErrors = value.errors as Record<string, string[]>;
    const details = Object.entries(fieldErrors).map(([field, messages]) => `${field}: ${messages.join(', ')}`);
    return { type: invalidFieldsType, message: `Invalid fields (${details.join('; ')})`, fieldErrors, docUrls: [] };
  }
  if (value.error && typeof value.error === 'object') {
    const { type, message, doc_urls } = value.error as { type?: string; message?: string; doc_urls?: string[] };
    return { type: type ?? 'unknown', message: message ?? `HTTP ${status}`, fieldErrors: {}, docUrls: doc_urls ?? [] };
  }
  if (typeof value.error === 'string') {
    const message = typeof value.error_description === 'string' ? value.error_description : value.error;
    return { type: value.error, message, fieldErrors: {}, docUrls: [] };
  }
  return { type: 'unknown', message: `HTTP ${status}`, fieldErrors: {}, docUrls: [] };
}

/** The typed error of a failed answer (its body already read). */
export function apiErrorOf(status: number, headers: Headers, body: unknown): SesameApiError {
  const { type, message, fieldErrors, docUrls } = shapeOf(status, body);
  return new SesameApiError(status, type, message, fieldErrors, docUrls, headers.get('x-correlation-id') ?? undefined, body);
}

/** Reads a body as JSON when it is JSON, as text otherwise (undefined when empty). */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
