import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import { repoRoot } from './system';

export type JsonSchema = Record<string, any>;

export interface DocumentedParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

/** One operation as the published OpenAPI document describes it. */
export interface DocumentedOperation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  secured: boolean;
  parameters: DocumentedParameter[];
  /** The request body schema, `$ref`s resolved one level (properties may still hold refs). */
  body?: JsonSchema;
  contentTypes: string[];
  /** Documented answers: status → a validator of the body (undefined when no body is documented). */
  responses: Map<number, ValidateFunction | undefined>;
  /** A browser-facing operation (an answer documented as `text/html`): its errors are HTML pages. */
  browser: boolean;
}

/**
 * The OpenAPI document the build writes (`contracts/openapi.json`), read as an integrator would:
 * the hostile-input fuzzer derives every request and every expected answer from it, so each
 * operation covers itself as soon as it is in the document.
 */
export class OpenApiDocument {
  readonly document: JsonSchema;
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file = join(repoRoot, 'contracts', 'openapi.json')) {
    this.document = JSON.parse(readFileSync(file, 'utf8'));
  }

  operations(): DocumentedOperation[] {
    const operations: DocumentedOperation[] = [];
    for (const [path, item] of Object.entries<JsonSchema>(this.document.paths))
      for (const [method, operation] of Object.entries<JsonSchema>(item)) {
        const content: Record<string, { schema: JsonSchema }> = operation.requestBody?.content ?? {};
        const bodySchema = Object.values(content)[0]?.schema;
        operations.push({
          operationId: operation.operationId,
          method: method as DocumentedOperation['method'],
          path,
          secured: (operation.security ?? []).length > 0,
          parameters: (operation.parameters ?? []).map((parameter: JsonSchema) => ({
            name: parameter.name,
            in: parameter.in,
            required: parameter.required === true,
            schema: this.resolve(parameter.schema ?? {}),
          })),
          body: bodySchema ? this.resolve(bodySchema) : undefined,
          contentTypes: Object.keys(content),
          browser: Object.values<JsonSchema>(operation.responses ?? {}).some(
            (response) => 'text/html' in (response.content ?? {}),
          ),
          responses: new Map(
            Object.entries<JsonSchema>(operation.responses ?? {}).map(([status, response]) => {
              const schema = response.content?.['application/json']?.schema;
              return [Number(status), schema ? this.validator(schema) : undefined];
            }),
          ),
        });
      }
    return operations;
  }

  /** A component schema by name (`Error`, `FieldErrors`, `OAuthError`...). */
  component(name: string): ValidateFunction {
    return this.validator({ $ref: `#/components/schemas/${name}` });
  }

  /** Follows `$ref`s to `#/components/...` until a schema with content is reached. */
  resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++)
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: JsonSchema, key: string) => node[key], this.document);
    return current;
  }

  private validator(schema: JsonSchema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...schema, components: this.document.components });
      this.validators.set(key, validate);
    }
    return validate;
  }
}
