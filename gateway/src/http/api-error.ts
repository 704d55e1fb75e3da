import { errorCatalogue, oauthErrorCatalogue, scimErrorSchemaUrn, statusOf } from '@sesame/contracts';
import type { AppError, ErrorBody, FieldErrorsBody, OAuthErrorBody, Operation, ScimErrorBody } from '@sesame/contracts';

/** An error answer decided in the gateway (auth, validation, transport), before any service. */
export class ApiError extends Error {
  constructor(
    readonly error: AppError,
    /** Headers of the answer (`Retry-After` of a rate-limited request). */
    readonly headers: Record<string, string> = {},
  ) {
    super(error.kind === 'error' ? error.code : error.kind);
    this.name = 'ApiError';
  }
}

export type ErrorStyle = NonNullable<Operation['errorStyle']>;

export interface ErrorAnswer {
  status: number;
  body: ErrorBody | FieldErrorsBody | OAuthErrorBody | ScimErrorBody;
}

/** The HTTP answer of an AppError: one of the two API shapes, the OAuth shape, or the SCIM shape on SCIM routes. */
export function errorAnswer(error: AppError, docsUrl: string, style: ErrorStyle = 'api'): ErrorAnswer {
  if (style === 'scim' || error.kind === 'scim') {
    const scimStatus = error.kind === 'fields' ? 400 : statusOf(error);
    return { status: scimStatus, body: scimErrorBody(error, scimStatus) };
  }
  const status = statusOf(error);
  if (error.kind === 'fields') return { status, body: { errors: error.fields } };
  if (error.kind === 'oauth')
    return { status: oauthErrorCatalogue[error.code], body: { error: error.code, error_description: error.description } };
  const entry = errorCatalogue[error.code];
  return {
    status,
    body: {
      error: {
        type: error.code,
        message: error.message ?? entry.message,
        doc_urls: [`${docsUrl.replace(/\/$/, '')}${entry.docPath}`],
      },
    },
  };
}

/** RFC 7644 section 3.12: field errors become 400 `invalidValue`, catalogue errors keep their status and message. */
function scimErrorBody(error: AppError, status: number): ScimErrorBody {
  const body = (detail: string, scimType?: ScimErrorBody['scimType']): ScimErrorBody => ({
    schemas: [scimErrorSchemaUrn],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  });
  switch (error.kind) {
    case 'scim':
      return body(error.detail, error.scimType);
    case 'fields':
      return body(
        Object.entries(error.fields)
          .map(([field, messages]) => `${field} ${messages.join(', ')}`)
          .join('; '),
        'invalidValue',
      );
    case 'oauth':
      return body(error.description);
    default:
      return body(error.message ?? errorCatalogue[error.code].message, status === 400 ? 'invalidSyntax' : undefined);
  }
}
