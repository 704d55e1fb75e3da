import { randomBytes } from 'node:crypto';
import type { JsonValue, Sample, SampleFile, SampleRequest } from './types';
import type { OpenApiDocument, SampleCheck } from './openapi';
import { checkSamplesAgainstOpenApi } from './openapi';
import { compareShape } from './shape';
import type { SnippetAnswer } from './snippets';
import { fillPath, parseOperation, queryString, substitute, valueAt, variablesOf } from './template';

export interface ApiKey {
  clientId: string;
  clientSecret: string;
}

export interface SampleResult {
  id: string;
  file: string;
  operation: string;
  /** `passed`/`failed`: run; `pending`: its operation (or one it depends on) is not in the OpenAPI document. */
  outcome: 'passed' | 'failed' | 'pending';
  problems: string[];
  /** How it ran: its HTTP request, or `execute` (the SDK snippet). */
  via?: 'http' | 'execute';
}

export interface RunOptions {
  baseUrl: string;
  apiKey: ApiKey;
  document: OpenApiDocument;
  files: SampleFile[];
  fetch?: typeof fetch;
  /**
   * Runs a sample another way than its HTTP request (its Node SDK snippet); `undefined` sends the
   * request. The answer is checked like the HTTP one: status, captures, body shape.
   */
  execute?: (sample: Sample, variables: Record<string, string>) => Promise<SnippetAnswer> | undefined;
}

/** A run-time value for a `unique` variable: a random suffix in a form that keeps the value valid. */
export function uniqueValue(display: string, suffix = randomBytes(3).toString('hex')): string {
  const at = display.indexOf('@');
  if (at > 0) return `${display.slice(0, at)}+${suffix}${display.slice(at)}`;
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(display)) return `${suffix}.${display}`;
  return `${display} ${suffix}`;
}

/**
 * Unique emails follow their organization's unique email domain: `ada@acme.com` becomes
 * `ada+<s>@<t>.acme.com` when `acme.com` is itself a unique variable, so that the email still
 * belongs to the organization's `allowed_email_domains`.
 */
export function alignEmailDomains(values: Record<string, string>, declared: Record<string, { display: string; source: string }>) {
  const domains = new Map(
    Object.entries(declared)
      .filter(([name, variable]) => variable.source === 'unique' && !variable.display.includes('@') && values[name])
      .map(([name, variable]) => [variable.display, values[name] as string]),
  );
  for (const [name, variable] of Object.entries(declared)) {
    const at = variable.display.lastIndexOf('@');
    const unique = domains.get(variable.display.slice(at + 1));
    if (variable.source === 'unique' && at > 0 && unique && values[name])
      values[name] = `${(values[name] as string).slice(0, (values[name] as string).lastIndexOf('@'))}@${unique}`;
  }
}

function formBody(form: Record<string, string | string[]>): string {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) for (const item of [value].flat()) body.append(key, item);
  return body.toString();
}

/** Builds the HTTP request of a sample once its variables are known. */
export function buildRequest(sample: Sample, variables: Record<string, string>, baseUrl: string) {
  const { method, path } = parseOperation(sample.operation);
  const request = substitute<SampleRequest>(sample.request, variables);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (sample.auth === 'bearer') headers.authorization = `Bearer ${variables.access_token}`;
  let body: string | undefined;
  if (request.json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = formBody(request.form);
  }
  const url = `${baseUrl.replace(/\/+$/, '')}${fillPath(path, request.path)}${queryString(request.query)}`;
  return { url, init: { method, headers, ...(body === undefined ? {} : { body }) } };
}

async function accessToken(baseUrl: string, apiKey: ApiKey, doFetch: typeof fetch): Promise<string> {
  const response = await doFetch(`${baseUrl.replace(/\/+$/, '')}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: formBody({ grant_type: 'client_credentials', client_id: apiKey.clientId, client_secret: apiKey.clientSecret }),
  });
  const body = (await response.json().catch(() => null)) as { access_token?: unknown } | null;
  if (response.status !== 200 || typeof body?.access_token !== 'string')
    throw new Error(`POST /oauth/token with the API key answered ${response.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

interface Answer {
  status: number;
  body: unknown;
  problems: string[];
}

async function httpAnswer(sample: Sample, variables: Record<string, string>, baseUrl: string, doFetch: typeof fetch) {
  const { url, init } = buildRequest(sample, variables, baseUrl);
  const response = await doFetch(url, init);
  const text = await response.text();
  const answer: Answer = { status: response.status, body: null, problems: [] };
  if (response.status !== sample.response.status)
    answer.problems.push(
      `${init.method} ${url} answered ${response.status}, documented ${sample.response.status}: ${text.slice(0, 300)}`,
    );
  if (text.length > 0) {
    try {
      answer.body = JSON.parse(text);
    } catch {
      answer.problems.push(`the response is not JSON: ${text.slice(0, 200)}`);
    }
  }
  return answer;
}

/** The answer of a sample's SDK snippet: a success stands for a documented 2xx, an API error for its status. */
function snippetAnswer(sample: Sample, executed: SnippetAnswer): Answer {
  const documented = sample.response.status;
  const problems: string[] = [];
  if (executed.status === 'success' && documented >= 300)
    problems.push(`the SDK call succeeded, documented ${documented}: ${JSON.stringify(executed.body ?? null).slice(0, 300)}`);
  else if (executed.status === 'success' && executed.body === undefined && sample.response.body !== null)
    problems.push('the SDK snippet answered nothing: it must return the value of its call');
  else if (executed.status !== 'success' && executed.status !== documented)
    problems.push(
      `the SDK call failed with ${executed.status}, documented ${documented}: ${JSON.stringify(executed.body ?? null).slice(0, 300)}`,
    );
  return { status: executed.status === 'success' ? documented : executed.status, body: executed.body ?? null, problems };
}

/** Compares a list answered by an SDK iterator with the `data` items of a documented page. */
function documentedItems(documented: JsonValue): JsonValue {
  const data = documented && typeof documented === 'object' && !Array.isArray(documented) ? documented.data : undefined;
  return Array.isArray(data) ? data : documented;
}

async function runOne(sample: Sample, variables: Record<string, string>, options: RunOptions, doFetch: typeof fetch) {
  const executed = options.execute?.(sample, variables);
  const answer = executed ? snippetAnswer(sample, await executed) : await httpAnswer(sample, variables, options.baseUrl, doFetch);
  const { body, problems } = answer;
  if (problems.length === 0) {
    for (const [name, path] of Object.entries(sample.capture ?? {})) {
      const value = valueAt(body, path);
      if (typeof value === 'string' || typeof value === 'number') variables[name] = String(value);
      else problems.push(`capture ${name}: no string at ${path}`);
    }
  }
  if (problems.length === 0) {
    const documented = substitute<JsonValue>(sample.response.body, variables);
    problems.push(
      ...compareShape(executed && Array.isArray(body) ? documentedItems(documented) : documented, body, sample.exact),
    );
  }
  return { problems, via: executed ? ('execute' as const) : ('http' as const) };
}

/**
 * Runs every enabled sample against a live system, file by file and in order (later samples use
 * values captured from earlier ones). A sample whose operation does not match the OpenAPI document
 * fails without being sent; a sample that needs a value only a pending sample captures is pending.
 */
export async function runSamples(options: RunOptions): Promise<SampleResult[]> {
  const doFetch = options.fetch ?? fetch;
  const checks = checkSamplesAgainstOpenApi(options.document, options.files);
  const checkOf = new Map<Sample, SampleCheck>(checks.map((check) => [check.sample, check]));
  const token = await accessToken(options.baseUrl, options.apiKey, doFetch);
  const results: SampleResult[] = [];

  for (const file of options.files) {
    const variables: Record<string, string> = {
      base_url: options.baseUrl,
      client_id: options.apiKey.clientId,
      client_secret: options.apiKey.clientSecret,
      access_token: token,
    };
    for (const [name, variable] of Object.entries(file.variables))
      if (variable.source === 'unique') variables[name] = uniqueValue(variable.display);
    alignEmailDomains(variables, file.variables);

    for (const sample of file.samples) {
      const base = { id: sample.id, file: file.name, operation: sample.operation };
      const check = checkOf.get(sample)!;
      if (check.status === 'pending') {
        results.push({ ...base, outcome: 'pending', problems: [] });
        continue;
      }
      if (check.problems.length > 0) {
        results.push({ ...base, outcome: 'failed', problems: check.problems.map((problem) => `OpenAPI: ${problem}`) });
        continue;
      }
      const missing = variablesOf(sample.request as never).filter((name) => variables[name] === undefined);
      if (missing.length > 0) {
        const pendingSource = file.samples.some(
          (other) => checkOf.get(other)?.status === 'pending' && missing.some((name) => other.capture?.[name]),
        );
        results.push({
          ...base,
          outcome: pendingSource ? 'pending' : 'failed',
          problems: [`needs ${missing.map((name) => `{{${name}}}`).join(', ')}, which no earlier sample captured`],
        });
        continue;
      }
      try {
        const { problems, via } = await runOne(sample, variables, options, doFetch);
        results.push({ ...base, outcome: problems.length ? 'failed' : 'passed', problems, via });
      } catch (error) {
        results.push({ ...base, outcome: 'failed', problems: [(error as Error).message] });
      }
    }
  }
  return results;
}
