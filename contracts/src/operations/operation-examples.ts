import { errorCatalogue, scimErrorSchemaUrn } from '../common/errors';
import type { ErrorCode, ScimErrorBody } from '../common/errors';

/**
 * Examples of one operation for the API reference (`example` of its media types), each checked
 * against the operation's own schemas by `operation-examples.unit.spec.ts`.
 */
export interface OperationExamples {
  /** The request body: present exactly when the operation takes one. */
  request?: unknown;
  /** The body of the success answer: present unless the answer has no content (204). */
  response?: unknown;
  /** One error answer, in the operation's error style, at a status the operation documents. */
  error: { status: number; body: unknown };
}

/** Where the `doc_urls` of the examples point (a deployment answers with its `SESAME_DOCS_URL`). */
export const exampleDocsUrl = 'https://docs.sesame.example.com';

/** The answer the gateway gives for a catalogue error, with the catalogue's status and message. */
export function apiErrorExample(code: ErrorCode, message?: string): OperationExamples['error'] {
  const entry = errorCatalogue[code];
  return {
    status: entry.status,
    body: { error: { type: code, message: message ?? entry.message, doc_urls: [`${exampleDocsUrl}${entry.docPath}`] } },
  };
}

/** A SCIM error answer (RFC 7644 section 3.12). */
export function scimErrorExample(
  status: number,
  detail: string,
  scimType?: ScimErrorBody['scimType'],
): OperationExamples['error'] {
  return {
    status,
    body: { schemas: [scimErrorSchemaUrn], status: String(status), ...(scimType ? { scimType } : {}), detail },
  };
}
