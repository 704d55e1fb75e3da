import { errorCatalogue, oauthErrorCatalogue, statusOf } from '@sesame/contracts';
import type { AppError, ErrorBody, FieldErrorsBody, OAuthErrorBody } from '@sesame/contracts';

/** An error answer decided in the gateway (auth, validation, transport), before any service. */
export class ApiError extends Error {
  constructor(readonly error: AppError) {
    super(error.kind === 'error' ? error.code : error.kind);
    this.name = 'ApiError';
  }
}

export interface ErrorAnswer {
  status: number;
  body: ErrorBody | FieldErrorsBody | OAuthErrorBody;
}

/** The HTTP answer of an AppError: one of the two API shapes, or the OAuth shape. */
export function errorAnswer(error: AppError, docsUrl: string): ErrorAnswer {
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
