import { errorBodySchema, fieldErrorsBodySchema, oauthErrorBodySchema, scimErrorBodySchema } from '../common/errors';
import { z } from '../zod';
import type { Operation } from '../operations/operation';

/** The answers of an operation's OpenAPI entry, by status. */
export type DocumentedResponses = Record<string, { description: string }>;

function schemaProblems(what: string, schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${what} ${issue.path.join('.') || '(body)'}: ${issue.message}`);
}

/** The body schema of an error answer at this status, in the operation's error style. */
function errorSchemaOf(operation: Operation, status: number): z.ZodType {
  if (operation.errorStyle === 'scim') return scimErrorBodySchema;
  if (operation.errorStyle === 'oauth') return oauthErrorBodySchema;
  return status === 422 ? z.union([errorBodySchema, fieldErrorsBodySchema]) : errorBodySchema;
}

function errorProblems(operation: Operation, documented: DocumentedResponses): string[] {
  const { status, body } = operation.examples.error;
  const answer = documented[String(status)];
  if (status < 400 || !answer) return [`error: status ${status} is not a documented error answer`];
  const problems = schemaProblems('error', errorSchemaOf(operation, status), body);
  const code = errorBodySchema.safeParse(body).data?.error.type;
  if (code !== undefined && (operation.errorStyle ?? 'api') === 'api' && !answer.description.includes(`${code}: `))
    problems.push(`error: ${code} is not documented at status ${status}`);
  return problems;
}

/**
 * What is wrong with an operation's examples ([] when nothing): a request body example exactly
 * when the operation takes a body, valid against its schema; a success example valid against the
 * response schema (none for 204); an error example at a documented error status, in the
 * operation's error style, with a code the entry documents at that status.
 */
export function exampleProblems(operation: Operation, documented: DocumentedResponses): string[] {
  const { examples, request, response } = operation;
  const problems: string[] = [];
  if (request.body === undefined) {
    if (examples.request !== undefined) problems.push('request: the operation takes no body');
  } else if (examples.request === undefined) problems.push('request: missing');
  else problems.push(...schemaProblems('request', request.body, examples.request));
  if (response.status === 204) {
    if (examples.response !== undefined) problems.push('response: a 204 answer has no body');
  } else if (examples.response === undefined) problems.push('response: missing');
  else problems.push(...schemaProblems('response', response.schema, examples.response));
  return [...problems, ...errorProblems(operation, documented)];
}
