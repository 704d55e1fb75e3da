import { operations } from '../operations';
import type { Operation } from '../operations/operation';
import { createUser } from '../operations/users.operations';
import { scimOperations } from '../operations/scim.operations';
import { issueToken } from '../operations/oauth.operations';
import { exampleProblems } from './example-problems';
import type { DocumentedResponses } from './example-problems';
import { generateOpenApiDocument } from './generate-openapi';

const document = generateOpenApiDocument() as any;
const documentedOf = (operation: Operation): DocumentedResponses => document.paths[operation.path][operation.method].responses;
const withExamples = (operation: Operation, examples: Partial<Operation['examples']>): Operation => ({
  ...operation,
  examples: { ...operation.examples, ...examples },
});

describe('operation examples', () => {
  it('every operation of the table has a request, success and error example valid against its own schemas', () => {
    const problems = operations.flatMap((operation) =>
      exampleProblems(operation, documentedOf(operation)).map((problem) => `${operation.operationId}: ${problem}`),
    );
    expect(problems).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(100);
  });

  it('puts the examples on the request body, the success answer and the error answer of each entry', () => {
    for (const operation of operations) {
      const entry = document.paths[operation.path][operation.method];
      const { request, response, error } = operation.examples;
      const id = operation.operationId;
      if (request !== undefined)
        for (const media of Object.values<any>(entry.requestBody.content)) expect([id, media.example]).toEqual([id, request]);
      if (response !== undefined)
        for (const media of Object.values<any>(entry.responses[operation.response.status].content))
          expect([id, media.example]).toEqual([id, response]);
      for (const media of Object.values<any>(entry.responses[error.status].content))
        expect([id, media.example]).toEqual([id, error.body]);
    }
  });

  it('reports a request example that does not match the body schema, or a missing one', () => {
    const broken = withExamples(createUser, { request: { email: 'not an email', profile: { gender: 'robot' } } });
    expect(exampleProblems(broken, documentedOf(createUser))).toEqual([
      'request email: invalid_format',
      'request profile.gender: must be male, female or null',
    ]);
    const missing = withExamples(createUser, { request: undefined });
    expect(exampleProblems(missing, documentedOf(createUser))).toEqual(['request: missing']);
  });

  it('reports a success example that does not match the response schema', () => {
    const { __type__: _type, ...withoutType } = createUser.examples.response as Record<string, unknown>;
    const broken = withExamples(createUser, { response: { ...withoutType, active: 'yes' } });
    expect(exampleProblems(broken, documentedOf(createUser))).toEqual([
      expect.stringMatching(/^response __type__: /),
      expect.stringMatching(/^response active: /),
    ]);
  });

  it('reports an error example at an undocumented status, in the wrong style, or with a code not documented there', () => {
    const documented = documentedOf(createUser);
    const teapot = withExamples(createUser, { error: { status: 418, body: {} } });
    expect(exampleProblems(teapot, documented)).toEqual(['error: status 418 is not a documented error answer']);
    const oauthShape = withExamples(createUser, {
      error: { status: 404, body: { error: 'invalid_grant', error_description: 'x' } },
    });
    expect(exampleProblems(oauthShape, documented)).toEqual([expect.stringMatching(/^error error: /)]);
    const otherCode = withExamples(createUser, {
      error: { status: 404, body: { error: { type: 'unknown_password_code', message: 'x', doc_urls: [] } } },
    });
    expect(exampleProblems(otherCode, documented)).toEqual(['error: unknown_password_code is not documented at status 404']);
    const scim = scimOperations[0]!;
    const apiShape = withExamples(scim, { error: { status: 404, body: { error: { type: 'x', message: 'y', doc_urls: [] } } } });
    expect(exampleProblems(apiShape, documentedOf(scim)).length).toBeGreaterThan(0);
    const token = withExamples(issueToken, { error: { status: 400, body: { errors: { grant_type: ['is invalid'] } } } });
    expect(exampleProblems(token, documentedOf(issueToken)).length).toBeGreaterThan(0);
  });

  it('reports a body example on an operation without a body, and a body on a 204', () => {
    const scimDelete = scimOperations.find((operation) => operation.operationId === 'scimDeleteUser')!;
    const broken = withExamples(scimDelete, { request: { id: 'x' }, response: { deleted: true } });
    expect(exampleProblems(broken, documentedOf(scimDelete))).toEqual([
      'request: the operation takes no body',
      'response: a 204 answer has no body',
    ]);
  });
});
