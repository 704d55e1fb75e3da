import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateOpenApiDocument } from './generate-openapi';
import { convertKeywords, toOpenApi30 } from './openapi-3.0';
import { openApiFileTexts } from './openapi-files';

const schemaIn = (schema: object) => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {},
  components: { schemas: { S: schema } },
});
const converted = (schema: object) => (toOpenApi30(schemaIn(schema)) as any).components.schemas.S;

describe('OpenAPI 3.0 rendition', () => {
  it('turns a type array with null into nullable, and several types into anyOf', () => {
    expect(converted({ type: ['string', 'null'], format: 'date-time' })).toEqual({
      type: 'string',
      format: 'date-time',
      nullable: true,
    });
    expect(converted({ type: ['string', 'integer'] })).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
  });

  it('turns a null branch of anyOf or oneOf into nullable branches, or a nullable node around references', () => {
    expect(converted({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] })).toEqual({
      anyOf: [
        { type: 'string', nullable: true },
        { type: 'number', nullable: true },
      ],
    });
    expect(converted({ oneOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }] })).toEqual({
      oneOf: [{ $ref: '#/components/schemas/A' }],
      nullable: true,
    });
  });

  it('turns const into a one-value enum, and a lone null type into a nullable null enum', () => {
    expect(converted({ type: 'string', const: 'User' })).toEqual({ type: 'string', enum: ['User'] });
    expect(converted({ type: 'null' })).toEqual({ nullable: true, enum: [null] });
  });

  it('turns a schema examples array into example, keeping an example already there', () => {
    expect(converted({ type: 'string', examples: ['a', 'b'] })).toEqual({ type: 'string', example: 'a' });
    expect(converted({ type: 'string', examples: ['a'], example: 'z' })).toEqual({ type: 'string', example: 'z' });
    expect(converted({ type: 'string', examples: [] })).toEqual({ type: 'string' });
  });

  it('turns numeric exclusive bounds into the boolean form', () => {
    expect(converted({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({
      type: 'integer',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 10,
      exclusiveMaximum: true,
    });
  });

  it('removes $schema, $id and jsonSchemaDialect, gives the license its SPDX page as url, and says 3.0.3', () => {
    const document = toOpenApi30({
      openapi: '3.1.0',
      jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
      info: { title: 'T', summary: 'S', version: '1', license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
      paths: {},
      components: { schemas: { S: { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'S', type: 'object' } } },
    });
    expect(document).toEqual({
      openapi: '3.0.3',
      info: { title: 'T', version: '1', license: { name: 'Apache-2.0', url: 'https://spdx.org/licenses/Apache-2.0.html' } },
      paths: {},
      components: { schemas: { S: { type: 'object' } } },
    });
  });

  it('converts schemas everywhere (properties, items, parameters, bodies, headers) but never examples or property names', () => {
    const example = { type: ['string', 'null'], const: 1, exclusiveMinimum: 2 };
    const document = toOpenApi30({
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/x': {
          post: {
            parameters: [{ name: 'q', in: 'query', schema: { type: ['integer', 'null'] } }],
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { const: { type: 'array', items: { type: ['string', 'null'] } } } },
                  example,
                },
              },
            },
            responses: {
              '200': {
                description: 'ok',
                headers: { 'X-N': { schema: { type: 'integer', exclusiveMinimum: 0 } } },
                content: { 'application/json': { schema: { type: 'string' }, examples: { one: { value: example } } } },
              },
            },
          },
        },
      },
    }) as any;
    const post = document.paths['/x'].post;
    expect(post.parameters[0].schema).toEqual({ type: 'integer', nullable: true });
    const media = post.requestBody.content['application/json'];
    expect(media.schema.properties.const).toEqual({ type: 'array', items: { type: 'string', nullable: true } });
    expect(media.example).toEqual(example);
    expect(post.responses['200'].headers['X-N'].schema).toEqual({ type: 'integer', minimum: 0, exclusiveMinimum: true });
    expect(post.responses['200'].content['application/json'].examples.one.value).toEqual(example);
  });

  it('fails on a keyword 3.0 has no form for', () => {
    expect(() => convertKeywords({ type: 'array', prefixItems: [{ type: 'string' }] })).toThrow(
      'OpenAPI 3.0 has no form for the JSON Schema keyword prefixItems',
    );
    expect(() => converted({ type: 'object', propertyNames: { pattern: '^a' } })).toThrow(/propertyNames/);
  });

  it('turns top-level webhooks into x-webhooks, converted like paths', () => {
    const body = { content: { 'application/json': { schema: { type: ['string', 'null'] } } } };
    const document = toOpenApi30({ ...schemaIn({}), webhooks: { 'user.created': { post: { requestBody: body } } } }) as any;
    expect(document.webhooks).toBeUndefined();
    expect(document['x-webhooks']['user.created'].post.requestBody.content['application/json'].schema).toEqual({
      type: 'string',
      nullable: true,
    });
    expect(toOpenApi30({ ...schemaIn({}), webhooks: {} })).not.toHaveProperty('x-webhooks');
  });

  it('leaves no 3.1-only construct in the rendition of the Sesame document', () => {
    const text = JSON.stringify(toOpenApi30(generateOpenApiDocument()));
    expect(JSON.parse(text).openapi).toBe('3.0.3');
    expect(text).not.toMatch(/"type":\[/);
    expect(text).not.toMatch(/"type":"null"/);
    expect(text).not.toMatch(/"exclusiveM(in|ax)imum":\d/);
    expect(text).not.toMatch(/"(const|\$schema|jsonSchemaDialect|identifier)":/);
  });
});

describe('committed OpenAPI documents', () => {
  it('are what the build writes (run `npm run build` or `npm run openapi` if not)', () => {
    const { openApi31, openApi30 } = openApiFileTexts();
    const committed = (name: string) => readFileSync(resolve(__dirname, '../..', name), 'utf8');
    expect(committed('openapi.json') === openApi31).toBe(true);
    expect(committed('openapi-3.0.json') === openApi30).toBe(true);
  });
});
