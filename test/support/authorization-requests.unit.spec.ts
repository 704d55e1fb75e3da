import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defineOperation,
  generateOpenApiDocument,
  operations,
  orgDomainParamsSchema,
  subjects,
  updateUser,
  userSchema,
  z,
} from '@sesame/contracts';
import type { Operation } from '@sesame/contracts';
import { cellsOf } from './authorization-cells';
import { generateRequests } from './authorization-requests';
import { AuthorizationWorld } from './authorization-world';
import type { LocalDnsServer } from './dns-server';
import { OpenApiDocument } from './openapi';
import type { System } from './system';

const userId = '4d7c7d57-3b2c-4c53-8a55-0f1a3c9d2b10';
const otherUserId = '9b1e6a40-5d3f-4a8e-bf0e-2c6a7d8e9f01';

/** An operation added to the table the way a new one would be: the matrix must cover it with no test written. */
const nickname = defineOperation({
  operationId: 'matrixProbeSetNickname',
  method: 'put',
  path: '/api/v2/org/{org_domain}/users/{id}/nickname',
  tag: 'Users',
  summary: 'A new operation',
  auth: 'api_key',
  scope: 'users:write',
  subject: subjects.identity.users.update,
  request: { params: orgDomainParamsSchema.extend({ id: z.uuid() }), body: z.object({ nickname: z.string().min(1) }) },
  response: { status: 200, description: 'The user', schema: userSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: { ...updateUser.examples, request: { nickname: 'Ada' } },
});
const gadget = defineOperation({
  ...nickname,
  operationId: 'matrixProbeGetGadget',
  method: 'get',
  path: '/api/v2/org/{org_domain}/gadgets/{gadget_id}',
  request: { params: orgDomainParamsSchema.extend({ gadget_id: z.string() }) },
});
const picky = defineOperation({
  ...nickname,
  operationId: 'matrixProbePicky',
  path: '/api/v2/org/{org_domain}/users/{id}/picky',
  request: {
    params: nickname.request.params,
    body: z.object({ word: z.string().refine((word) => word === 'xyzzy', 'must be the magic word') }),
  },
});

/** The OpenAPI document of the table with the probes in it, read as the matrix reads the published one. */
function documentWith(probes: Operation[]): OpenApiDocument {
  operations.push(...probes);
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'matrix-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(generateOpenApiDocument()));
    return new OpenApiDocument(file);
  } finally {
    operations.splice(operations.length - probes.length, probes.length);
  }
}

function smallWorld(): AuthorizationWorld {
  const world = new AuthorizationWorld({} as System, {} as LocalDnsServer);
  for (const env of ['sandbox', 'production'] as const) {
    world.owners[env] = { clientId: `${env}-owner`, clientSecret: 's', environment: env, scopes: ['users:write'] };
    world.setOrg(env, 'a', 'organization', `matrix-a-${env}`);
    world.setOrg(env, 'a', 'user', userId);
    world.setOrg(env, 'b', 'organization', `matrix-b-${env}`);
    world.setOrg(env, 'b', 'user', otherUserId);
  }
  return world;
}

describe('Authorization matrix: requests generated from the operation table', () => {
  const document = documentWith([nickname, gadget, picky]);
  const world = smallWorld();
  const production = { env: 'production' as const, org: 'a' as const };

  it('covers a new operation without anyone writing a test: path resolved by name, a minimal valid body, every cell', () => {
    const { templates, problems } = generateRequests(world, document, nickname, production);
    expect(problems).toEqual([]);
    expect(templates).toHaveLength(1);
    const [template] = templates;
    expect(template?.slots.map((slot) => [slot.in, slot.name, slot.role, slot.value])).toEqual([
      ['header', 'authorization', 'credential', world.owners.production],
      ['path', 'org_domain', 'anchor', 'matrix-a-production'],
      ['path', 'id', 'identifier', userId],
      ['body', 'nickname', 'value', expect.stringMatching(/^matrix_/)],
    ]);
    const cells = cellsOf(world, template!);
    expect(cells.map((cell) => [cell.name, cell.expectation?.type ?? cell.notApplicable])).toEqual([
      ['a', 'exact'],
      ['c', 'exact'],
      ['b', 'as-unknown'],
      ['d:id', 'as-unknown'],
      ['owner', 'accepted'],
    ]);
    const swapped = cells.find((cell) => cell.name === 'd:id');
    expect(swapped?.slots.find((slot) => slot.name === 'id')?.value).toBe(otherUserId);
    expect(swapped?.victim).toEqual({ env: 'production', org: 'b' });
  });

  it('fails the guard when a path parameter names something no rule knows, naming the operation’s parameter', () => {
    expect(generateRequests(world, document, gadget, production).problems).toEqual([
      'path parameter {gadget_id}: no rule says what it names (test/support/authorization-identifiers.ts)',
    ]);
  });

  it('fails the guard when an operation has credentials the matrix does not know how to send', () => {
    const session = { ...nickname, operationId: 'matrixProbeSession', auth: 'device_code' as never, scope: undefined };
    expect(generateRequests(world, documentWith([session]), session, production).problems).toEqual([
      'auth device_code: no rule says which field or header carries its credential',
    ]);
  });

  it('fails the guard when the generated body is not one the operation’s schema accepts, with its message', () => {
    expect(generateRequests(world, document, picky, production).problems).toEqual([
      'variant (default): body word: must be the magic word',
    ]);
  });
});
