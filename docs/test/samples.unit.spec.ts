import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { loadSampleFiles, parseSampleFile } from '../src/samples/load';
import { checkSamplesAgainstOpenApi, type OpenApiDocument } from '../src/samples/openapi';
import { expandSamples, curlCommand } from '../src/samples/render';
import { alignEmailDomains, runSamples, uniqueValue } from '../src/samples/runner';
import { compareShape } from '../src/samples/shape';
import {
  checkSnippet,
  executeSnippet,
  snippetBody,
  snippetCode,
  snippetVariables,
  type SnippetAnswer,
} from '../src/samples/snippets';
import type { SampleFile } from '../src/samples/types';

const openapi = JSON.parse(readFileSync(resolve(__dirname, '../../contracts/openapi.json'), 'utf8')) as OpenApiDocument;
const files = loadSampleFiles();

describe('documentation samples against the generated OpenAPI document', () => {
  const checks = checkSamplesAgainstOpenApi(openapi, files);

  it('match every operation they target that the OpenAPI document has', () => {
    const mismatches = checks
      .filter((check) => check.status === 'enabled' && check.problems.length > 0)
      .map((check) => `${check.file}/${check.sample.id} (${check.sample.operation}): ${check.problems.join('; ')}`);
    expect(mismatches).toEqual([]);
  });

  it('enable the samples of every operation that exists and leave only absent operations pending', () => {
    for (const check of checks) {
      const [method, path] = check.sample.operation.split(' ') as [string, string];
      const exists = Boolean(openapi.paths[path]?.[method.toLowerCase()]);
      expect({ id: check.sample.id, status: check.status }).toEqual({
        id: check.sample.id,
        status: exists ? 'enabled' : 'pending',
      });
    }
    expect(checks.some((check) => check.status === 'enabled')).toBe(true);
  });

  it('reports a sample whose body does not match its operation', () => {
    const broken: SampleFile = {
      name: 'broken',
      variables: {},
      samples: [
        {
          id: 'broken-create',
          operation: 'POST /api/v2/organizations',
          auth: 'bearer',
          request: { json: { name: 42 } },
          response: { status: 201, body: { name: 'Acme' } },
        },
        {
          id: 'broken-status',
          operation: 'GET /api/v2/organizations',
          auth: 'bearer',
          request: {},
          response: { status: 418, body: {} },
        },
      ],
    };
    const [create, status] = checkSamplesAgainstOpenApi(openapi, [broken]);
    expect(create?.status).toBe('enabled');
    expect(create?.problems.join('\n')).toMatch(/request body \/name must be string/);
    expect(create?.problems.join('\n')).toMatch(/response body \(body\) must have required property '__type__'/);
    expect(status?.problems.join('\n')).toMatch(/status 418 is not a documented response/);
  });
});

describe('sample files', () => {
  it('reject a variable used before it is captured', () => {
    const text = JSON.stringify({
      variables: { org_domain: { display: 'acme', source: 'capture' } },
      samples: [
        {
          id: 'a',
          operation: 'GET /api/v2/organizations/{org_domain}',
          auth: 'bearer',
          request: { path: { org_domain: '{{org_domain}}' } },
          response: { status: 200, body: {} },
        },
        {
          id: 'b',
          operation: 'POST /api/v2/organizations',
          auth: 'bearer',
          request: { json: { name: 'x' } },
          response: { status: 201, body: {} },
          capture: { org_domain: 'domain' },
        },
      ],
    });
    expect(() => parseSampleFile('bad', text)).toThrow(/request uses \{\{org_domain\}\} before it is defined or captured/);
  });

  it('render a request as curl with display values and expand placeholders', () => {
    const organizations = files.find((file) => file.name === 'organizations')!;
    const create = organizations.samples.find((sample) => sample.id === 'create-organization')!;
    expect(
      curlCommand(create, {
        base_url: '$SESAME_URL',
        access_token: '$ACCESS_TOKEN',
        org_name: 'Acme Corporation',
        org_email_domain: 'acme.com',
      }),
    ).toBe(
      [
        'curl -X POST "$SESAME_URL/api/v2/organizations" \\',
        '  -H "Authorization: Bearer $ACCESS_TOKEN" \\',
        '  -H "Content-Type: application/json" \\',
        `  -d '{\n  "name": "Acme Corporation",\n  "allowed_email_domains": [\n    "acme.com"\n  ]\n}'`,
      ].join('\n'),
    );
    const html = expandSamples('<p>x</p><sesame-sample id="create-organization"></sesame-sample>', files, 'fr');
    expect(html).toContain('Requête');
    expect(html).toContain('201 Created');
    expect(() => expandSamples('<sesame-sample id="nope"></sesame-sample>', files, 'en')).toThrow(/Unknown sample "nope"/);
  });

  it('make unique values that stay valid', () => {
    expect(uniqueValue('ada@acme.com', 'abc123')).toBe('ada+abc123@acme.com');
    expect(uniqueValue('acme.com', 'abc123')).toBe('abc123.acme.com');
    expect(uniqueValue('Acme Corporation', 'abc123')).toBe('Acme Corporation abc123');
    const values = { domain: 'x1.acme.com', email: 'ada+y2@acme.com', other: 'bob+z3@other.com' };
    alignEmailDomains(values, {
      domain: { display: 'acme.com', source: 'unique' },
      email: { display: 'ada@acme.com', source: 'unique' },
      other: { display: 'bob@other.com', source: 'unique' },
    });
    expect(values).toEqual({ domain: 'x1.acme.com', email: 'ada+y2@x1.acme.com', other: 'bob+z3@other.com' });
  });
});

describe('response shape comparison', () => {
  it('accepts the same keys and types and reports missing, extra, mistyped and inexact values', () => {
    expect(compareShape({ a: 1, b: [{ c: 'x' }], n: null }, { a: 2, b: [{ c: 'y' }, { c: 'z' }], n: 'any' })).toEqual([]);
    expect(compareShape({ a: 1, b: 'x' }, { a: '1', c: true }, ['b'])).toEqual([
      'a: documented number, got string',
      'b: documented but missing from the response',
      'c: returned but not documented',
      'b: documented "x", got undefined',
    ]);
  });
});

describe('sample runner against a live HTTP server', () => {
  const minimal: SampleFile = parseSampleFile(
    'mini',
    JSON.stringify({
      variables: { org_name: { display: 'Acme', source: 'unique' }, org_domain: { display: 'acme', source: 'capture' } },
      samples: [
        {
          id: 'mini-create',
          operation: 'POST /api/v2/organizations',
          auth: 'bearer',
          request: { json: { name: '{{org_name}}' } },
          response: { status: 201, body: { name: '{{org_name}}', domain: '{{org_domain}}' } },
          capture: { org_domain: 'domain' },
          exact: ['name'],
        },
        {
          id: 'mini-get',
          operation: 'GET /api/v2/organizations/{org_domain}',
          auth: 'bearer',
          request: { path: { org_domain: '{{org_domain}}' } },
          response: { status: 200, body: { name: '{{org_name}}', domain: '{{org_domain}}' } },
          exact: ['domain'],
        },
        {
          id: 'mini-pending',
          operation: 'GET /api/v2/webhooks',
          auth: 'bearer',
          request: {},
          response: { status: 200, body: {} },
        },
      ],
    }),
  );
  // A document where the two organization operations answer a loose object, so only the live run decides.
  const document: OpenApiDocument = {
    paths: {
      '/api/v2/organizations': {
        post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '201': {} } },
      },
      '/api/v2/organizations/{org_domain}': { get: { responses: { '200': {} } } },
    },
  };

  async function withServer(getStatus: number, run: (baseUrl: string, seen: string[]) => Promise<void>) {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
        response.setHeader('content-type', 'application/json');
        if (request.url === '/oauth/token') {
          response.end(JSON.stringify({ access_token: 'token-1', expires_in: 60, scope: '', token_type: 'Bearer' }));
        } else if (request.method === 'POST') {
          const name = (JSON.parse(body) as { name: string }).name;
          response.statusCode = 201;
          response.end(JSON.stringify({ name, domain: name.toLowerCase().replace(/\s+/g, '-') }));
        } else {
          response.statusCode = getStatus;
          response.end(JSON.stringify({ name: 'Other', domain: request.url!.split('/').pop() }));
        }
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
    } finally {
      await new Promise((done) => server.close(done));
    }
  }

  it('runs enabled samples in order with captured values and skips pending ones', async () => {
    await withServer(200, async (baseUrl, seen) => {
      const results = await runSamples({
        baseUrl,
        apiKey: { clientId: 'id', clientSecret: 'secret' },
        document,
        files: [minimal],
      });
      expect(results.map((result) => [result.id, result.outcome, result.problems])).toEqual([
        ['mini-create', 'passed', []],
        ['mini-get', 'passed', []],
        ['mini-pending', 'pending', []],
      ]);
      expect(seen[1]).toMatch(/^POST \/api\/v2\/organizations Bearer token-1$/);
      expect(seen[2]).toMatch(/^GET \/api\/v2\/organizations\/acme-[0-9a-f]{6} Bearer token-1$/);
    });
  });

  it('checks a sample run another way (its SDK snippet) like its HTTP answer', async () => {
    await withServer(200, async (baseUrl, seen) => {
      const run = (answer: (variables: Record<string, string>) => SnippetAnswer) =>
        runSamples({
          baseUrl,
          apiKey: { clientId: 'id', clientSecret: 'secret' },
          document,
          files: [minimal],
          execute: (sample, variables) => (sample.id === 'mini-get' ? Promise.resolve(answer(variables)) : undefined),
        });
      const passed = await run((variables) => ({
        status: 'success',
        body: { name: variables.org_name, domain: variables.org_domain },
      }));
      expect(passed.map((result) => [result.id, result.outcome, result.via ?? null])).toEqual([
        ['mini-create', 'passed', 'http'],
        ['mini-get', 'passed', 'execute'],
        ['mini-pending', 'pending', null],
      ]);
      expect(seen.filter((request) => request.startsWith('GET'))).toEqual([]);
      const unexpected = await run(() => ({ status: 'success', body: undefined }));
      expect(unexpected[1]?.problems).toEqual(['the SDK snippet answered nothing: it must return the value of its call']);
      const failed = await run(() => ({ status: 404, body: { error: 'gone' } }));
      expect(failed[1]?.problems).toEqual(['the SDK call failed with 404, documented 200: {"error":"gone"}']);
      const mistyped = await run((variables) => ({ status: 'success', body: [{ name: variables.org_name, domain: 7 }] }));
      // An array answered where an object is documented, and the exact `domain` is not there.
      expect(mistyped[1]?.problems).toEqual([
        '(body): documented object, got array',
        expect.stringMatching(/^domain: documented "acme-[0-9a-f]{6}", got undefined$/),
      ]);
    });
  });

  it('fails a sample whose status differs from the documented one', async () => {
    await withServer(404, async (baseUrl) => {
      const results = await runSamples({
        baseUrl,
        apiKey: { clientId: 'id', clientSecret: 'secret' },
        document,
        files: [minimal],
      });
      const get = results.find((result) => result.id === 'mini-get')!;
      expect(get.outcome).toBe('failed');
      expect(get.problems[0]).toMatch(/answered 404, documented 200/);
    });
  });
});

describe('Node SDK snippets of the samples', () => {
  const source = [
    "import { snippet } from './snippet';",
    '',
    "export default snippet<'org_domain' | 'org_email_domain'>(async (sesame, v) => {",
    '  const redirectUri = await sesame.redirectUris.create({ url: `https://app.${v.org_email_domain}/callback` });',
    '  const organization = await sesame.organizations.get(v.org_domain);',
    '  return organization;',
    '});',
    '',
  ].join('\n');

  it('show the body with display values, without the import, the wrapper and the return', () => {
    expect(snippetBody(source)).toBe(
      [
        'const redirectUri = await sesame.redirectUris.create({ url: `https://app.${v.org_email_domain}/callback` });',
        'const organization = await sesame.organizations.get(v.org_domain);',
      ].join('\n'),
    );
    expect(snippetVariables(source)).toEqual(['org_email_domain', 'org_domain']);
    expect(snippetCode(source, { org_domain: "o'hara", org_email_domain: 'acme.com' })).toBe(
      [
        "const redirectUri = await sesame.redirectUris.create({ url: 'https://app.acme.com/callback' });",
        "const organization = await sesame.organizations.get('o\\'hara');",
      ].join('\n'),
    );
    expect(() => snippetCode(source, { org_domain: 'acme' })).toThrow(
      'The snippet uses v.org_email_domain, which is not a variable of its sample file',
    );
    expect(() => snippetBody('export const x = 1;')).toThrow(/A snippet is `export default snippet/);
  });

  it('refuse unknown variables and error samples that do not name their error', () => {
    const sample = files.flatMap((file) => file.samples).find((candidate) => candidate.id === 'get-organization-not-found')!;
    expect(checkSnippet(sample, source, new Set(['org_domain']))).toEqual([
      'SDK snippet uses v.org_email_domain before it is defined or captured',
      'SDK snippet of an error sample must say it rejects with a SesameApiError 404',
    ]);
    expect(checkSnippet(sample, sample.sdk!, new Set())).toEqual([]);
  });

  it('are loaded for the operations the SDK has a method for, and only those', () => {
    const all = files.flatMap((file) => file.samples);
    const withSnippet = (id: string) => all.find((sample) => sample.id === id)?.sdk !== undefined;
    expect(['create-organization', 'list-users', 'create-user-duplicate-email', 'delete-webhook'].map(withSnippet)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // No SDK method: the token endpoint, form bodies, the JWKS, the attributes mapping.
    expect(
      ['token-client-credentials-form', 'create-organization-form', 'get-jwks', 'get-attributes-mapping'].map(withSnippet),
    ).toEqual([false, false, false, false]);
  });

  it('render as accessible tabs next to curl, labelled in the page language', () => {
    const en = expandSamples('<sesame-sample id="get-organization"></sesame-sample>', files, 'en');
    expect(en).toContain('<div class="sample-tabs" role="tablist" aria-label="Request language">');
    expect(en).toContain(
      '<button type="button" role="tab" class="sample-tab" id="sample-get-organization-sdk-tab" data-sample-tab="sdk" aria-controls="sample-get-organization-sdk" aria-selected="false" tabindex="-1">Node SDK</button>',
    );
    expect(en).toMatch(/<div role="tabpanel" class="sample-panel" id="sample-get-organization-curl" [^>]*tabindex="0">/);
    expect(en).toMatch(/<div role="tabpanel" class="sample-panel" id="sample-get-organization-sdk" [^>]*tabindex="0" hidden>/);
    const text = en.replace(/<[^>]+>/g, '');
    expect(text).toContain("const organization = await sesame.organizations.get('acme-corporation');");
    expect(text).not.toContain('return organization');
    const fr = expandSamples('<sesame-sample id="get-organization"></sesame-sample>', files, 'fr');
    expect(fr).toContain('aria-label="Langage de la requête"');
    expect(fr).toContain('>SDK Node</button>');
    const curlOnly = expandSamples('<sesame-sample id="get-jwks"></sesame-sample>', files, 'en');
    expect(curlOnly).not.toContain('role="tablist"');
  });

  it('answer their value, or the status and body of the API error they throw', async () => {
    class SesameApiError extends Error {
      override readonly name = 'SesameApiError';
      constructor(
        readonly status: number,
        readonly body: unknown,
      ) {
        super('failed');
      }
    }
    await expect(executeSnippet(async () => ({ id: 1 }), null, {})).resolves.toEqual({ status: 'success', body: { id: 1 } });
    await expect(
      executeSnippet(
        async () => {
          throw new SesameApiError(404, { error: { type: 'resource_not_found' } });
        },
        null,
        {},
      ),
    ).resolves.toEqual({ status: 404, body: { error: { type: 'resource_not_found' } } });
    await expect(
      executeSnippet(
        async () => {
          throw new TypeError('not an API error');
        },
        null,
        {},
      ),
    ).rejects.toThrow('not an API error');
  });
});
