import { errorCatalogue, oauthErrorCatalogue } from '@sesame/contracts';
import type { DocumentedOperation, OpenApiDocument } from './openapi';
import type { RawAnswer, RawRequest } from './raw-http';

/** Answers any operation may give before its own logic runs (SPEC.md section 8, transport rows). */
export const transportStatuses = new Set([400, 404, 405, 413, 414, 415, 431]);

const correlationIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Throws unless `answer` is one the OpenAPI document allows for `operation`: no 5xx, a documented
 * status (or a transport one), a body valid against the documented schema, an error type whose
 * catalogue status is the answer's status, and no request text reflected into a response header.
 */
export function expectDocumentedAnswer(
  document: OpenApiDocument,
  operation: DocumentedOperation | undefined,
  request: RawRequest,
  answer: RawAnswer,
): void {
  const fail = (why: string) => {
    const sent =
      request.body === undefined ? '' : ` body(${request.headers?.['content-type']}) ${String(request.body).slice(0, 300)}`;
    throw new Error(
      `${why}\n  request: ${request.method} ${request.path.slice(0, 300)}${sent}\n  answer: ${answer.status} ${answer.text.slice(0, 600)}`,
    );
  };
  if (answer.status >= 500 || answer.status < 100) fail(`server error ${answer.status}`);
  const correlationId = answer.headers['x-correlation-id'];
  if (typeof correlationId !== 'string' || !correlationIdPattern.test(correlationId))
    fail(`bad x-correlation-id header ${String(correlationId)}`);
  if (answer.status < 400) {
    const validate = operation?.responses.get(answer.status);
    if (!operation?.responses.has(answer.status)) fail('undocumented success status');
    if (validate && !validate(answer.json))
      fail(`success body does not match the document: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    return;
  }
  const contentType = String(answer.headers['content-type'] ?? '');
  // A browser-facing operation (SAML endpoints) shows its visitor an HTML error page.
  if (operation?.browser && contentType.startsWith('text/html') && answer.status < 500) return;
  const documented = operation?.responses.has(answer.status) ?? false;
  if (!documented && !transportStatuses.has(answer.status)) fail(`undocumented error status ${answer.status}`);
  // An undocumented transport status answers the API's error shape, or the operation's own (SCIM).
  const ownErrorShape = [...(operation?.responses.entries() ?? [])].find(([status]) => status >= 400 && status !== 422)?.[1];
  const documentedShape = operation?.responses.get(answer.status);
  const shapes = documentedShape ? [documentedShape] : [document.component('Error'), ownErrorShape];
  const valid = shapes.filter((shape) => shape !== undefined).some((shape) => shape(answer.json));
  if (!valid)
    fail(`error body is not the documented shape: ${JSON.stringify(shapes.find((shape) => shape?.errors)?.errors?.slice(0, 3))}`);
  const body = answer.json as { error?: unknown; errors?: Record<string, string[]> };
  if (typeof body.error === 'object' && body.error !== null) {
    const type = (body.error as { type: string }).type as keyof typeof errorCatalogue;
    if (errorCatalogue[type]?.status !== answer.status) fail(`error type ${type} does not belong to status ${answer.status}`);
  } else if (typeof body.error === 'string') {
    if (oauthErrorCatalogue[body.error as keyof typeof oauthErrorCatalogue] !== answer.status)
      fail(`OAuth error ${body.error} does not belong to status ${answer.status}`);
  } else if (
    body.errors !== undefined &&
    (answer.status !== 422 || Object.values(body.errors ?? {}).some((messages) => messages.length === 0))
  )
    fail('field errors must be a 422 with at least one message per field');
}
