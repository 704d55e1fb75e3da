import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Sample, SampleFile } from './types';
import { displayVariables } from './load';
import { parseOperation, substitute } from './template';

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
}
interface OpenApiMediaType {
  schema?: object;
}
interface OpenApiOperation {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, OpenApiMediaType> };
  responses?: Record<string, { content?: Record<string, OpenApiMediaType> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, object> };
}

export interface SampleCheck {
  sample: Sample;
  file: string;
  /** `pending`: the operation is not in the OpenAPI document yet, so the sample is not run. */
  status: 'enabled' | 'pending';
  operationId?: string;
  problems: string[];
}

/** Base name of a query parameter in bracket notation: `q[environments_status_in][]` is `q`. */
const baseParameter = (name: string) => name.replace(/\[.*$/, '');

/**
 * Checks each sample against the OpenAPI document generated from `contracts`: a sample whose
 * operation exists is enabled and must match it (path and query parameters, request body,
 * documented status and response body); a sample whose operation is absent is pending.
 */
export function checkSamplesAgainstOpenApi(document: OpenApiDocument, files: SampleFile[]): SampleCheck[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: document.components ?? {} });
  const validate = (schema: object, value: unknown): string[] => {
    const resolved = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
    const validator = ajv.compile(resolved);
    if (validator(value)) return [];
    return (validator.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? 'is invalid'}`);
  };

  const checks: SampleCheck[] = [];
  for (const file of files) {
    const display = displayVariables(file);
    for (const sample of file.samples) {
      const { method, path } = parseOperation(sample.operation);
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (!operation) {
        checks.push({ sample, file: file.name, status: 'pending', problems: [] });
        continue;
      }
      const problems: string[] = [];
      const parameters = operation.parameters ?? [];
      const templateParams = [...path.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]!);
      for (const name of templateParams)
        if (sample.request.path?.[name] === undefined) problems.push(`path parameter ${name} is not given`);
      for (const name of Object.keys(sample.request.path ?? {}))
        if (!templateParams.includes(name)) problems.push(`path parameter ${name} is not in ${path}`);
      for (const name of Object.keys(sample.request.query ?? {}))
        if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === baseParameter(name)))
          problems.push(`query parameter ${name} is not a parameter of ${sample.operation}`);
      for (const parameter of parameters)
        if (
          parameter.in === 'query' &&
          parameter.required &&
          !Object.keys(sample.request.query ?? {}).some((name) => baseParameter(name) === parameter.name)
        )
          problems.push(`required query parameter ${parameter.name} is missing`);

      const bodyContent = operation.requestBody?.content;
      const body = sample.request.json ?? sample.request.form;
      const mediaType = sample.request.json ? 'application/json' : 'application/x-www-form-urlencoded';
      if (body && !bodyContent) problems.push(`${sample.operation} takes no request body`);
      else if (!body && bodyContent) problems.push(`${sample.operation} needs a request body`);
      else if (body && bodyContent) {
        const schema = bodyContent[mediaType]?.schema;
        if (!schema) problems.push(`${sample.operation} does not accept ${mediaType}`);
        // An error sample sends an invalid body on purpose: only its answer is checked.
        else if (sample.response.status < 400)
          problems.push(...validate(schema, substitute(body, display)).map((problem) => `request body ${problem}`));
      }

      const response = operation.responses?.[String(sample.response.status)];
      if (!response) problems.push(`status ${sample.response.status} is not a documented response of ${sample.operation}`);
      else {
        const schema = response.content?.['application/json']?.schema;
        if (schema)
          problems.push(
            ...validate(schema, substitute(sample.response.body, display)).map((problem) => `response body ${problem}`),
          );
      }
      checks.push({
        sample,
        file: file.name,
        status: 'enabled',
        ...(operation.operationId ? { operationId: operation.operationId } : {}),
        problems,
      });
    }
  }
  return checks;
}
