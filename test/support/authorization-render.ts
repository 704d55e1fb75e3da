import { onboardingSessionCookie, scopes } from '@sesame/contracts';
import { fieldsOf } from './authorization-requests';
import type { RequestTemplate, Slot } from './authorization-requests';
import { isLate } from './authorization-world';
import type { RawRequest } from './raw-http';
import type { ApiKey, System } from './system';

const isApiKey = (value: unknown): value is ApiKey => typeof value === 'object' && value !== null && 'clientSecret' in value;

/** The HTTP request of a cell: path parameters in the path, query fields, a JSON (or form) body, the credential's header (or cookie). */
export async function render(system: System, template: RequestTemplate, late: Slot[]): Promise<RawRequest> {
  const { operation } = template;
  const slots = await Promise.all(
    late.map(async (slot) => (isLate(slot.value) ? { ...slot, value: await slot.value.late() } : slot)),
  );
  let path = operation.path;
  for (const slot of slots.filter((candidate) => candidate.in === 'path'))
    path = path.replace(`{${slot.name}}`, encodeURIComponent(String(slot.value ?? '')));
  const query = new URLSearchParams(Object.entries(fieldsOf(slots, 'query')).map(([name, value]) => [name, String(value)]));
  if (query.size > 0) path += `?${query}`;
  const headers: Record<string, string> = {};
  const credential = slots.find((slot) => slot.in === 'header');
  if (credential?.name === 'cookie' && typeof credential.value === 'string')
    headers.cookie = `${onboardingSessionCookie.name}=${credential.value}`;
  else if (isApiKey(credential?.value)) headers.authorization = `Bearer ${await system.token(credential.value)}`;
  else if (typeof credential?.value === 'string') headers.authorization = `Bearer ${credential.value}`;
  if (!operation.request.body) return { method: operation.method.toUpperCase(), path, headers };
  const fields = fieldsOf(slots, 'body');
  const form = template.contentType === 'application/x-www-form-urlencoded';
  headers['content-type'] = template.contentType;
  const body = form
    ? new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString()
    : JSON.stringify(fields);
  return { method: operation.method.toUpperCase(), path, headers, body };
}

/** A one-line account of a request for the report: method, path, the credential and the body's fields. */
export function describeRequest(request: RawRequest, slots: Slot[]): string {
  const credential = slots.find((slot) => slot.role === 'credential');
  const who = credential
    ? credential.value === null
      ? 'no credentials'
      : `${credential.kind} of ${credential.owner?.env}${credential.owner?.org ? `/${credential.owner.org}` : ''}${
          isApiKey(credential.value) && credential.value.scopes.length < scopes.length ? ' lacking the scope' : ''
        }`
    : 'no credentials';
  const body = request.body === undefined ? '' : ` ${String(request.body).slice(0, 160)}`;
  return `${request.method} ${request.path.slice(0, 160)} [${who}]${body}`;
}
