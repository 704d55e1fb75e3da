import { isDeepStrictEqual } from 'node:util';
import type { Cell } from './authorization-cells';
import type { Slot } from './authorization-requests';
import { describeRequest, render } from './authorization-render';
import { isLate } from './authorization-world';
import type { AuthorizationWorld } from './authorization-world';
import { rawRequest } from './raw-http';
import type { RawAnswer } from './raw-http';

export interface CellResult {
  cell: Cell;
  outcome: 'pass' | 'fail' | 'n/a';
  request?: string;
  answer?: string;
  expected?: string;
  /** Why it failed: the answer, or what changed in the victim's state. */
  failure?: string;
}

export async function send(
  world: AuthorizationWorld,
  cell: Cell,
  slots = cell.slots,
): Promise<{ request: string; answer: RawAnswer }> {
  const request = await render(world.system, cell.template, slots);
  return { request: describeRequest(request, slots), answer: await rawRequest(world.system.baseUrl, request, 30_000) };
}

const shown = (answer: RawAnswer) =>
  `${answer.status}${answer.headers.location ? ` → ${String(answer.headers.location).slice(0, 160)}` : ''} ${answer.text
    .slice(0, 400)
    .replace(/\s+/g, ' ')}`;

/** Checks a cell's answer against its expectation (sending the twin request of an "as if unknown" cell), and the victim's state. */
export async function judge(
  world: AuthorizationWorld,
  cell: Cell,
  sent: { request: string; answer: RawAnswer },
  stateChange: string,
): Promise<CellResult> {
  const { answer } = sent;
  const result = { cell, request: sent.request, answer: shown(answer) };
  const oauth = cell.template.operation.errorStyle === 'oauth';
  const expectation = cell.expectation;
  if (!expectation) return { cell, outcome: 'n/a' };
  let expected: string;
  let wrong: boolean;
  switch (expectation.type) {
    case 'exact':
      expected = `${expectation.status} ${JSON.stringify(expectation.body)}`;
      wrong = answer.status !== expectation.status || !isDeepStrictEqual(answer.json, expectation.body);
      break;
    case 'oauth':
      expected = `${expectation.status} {"error":"${expectation.error}","error_description":…}`;
      wrong =
        answer.status !== expectation.status || (answer.json as { error?: string } | undefined)?.error !== expectation.error;
      break;
    case 'no-leak': {
      const leaked = expectation.values.filter((value) => answer.text.includes(value));
      expected = `200 without any identifier of ${cell.victim.env}`;
      wrong = answer.status !== 200 || leaked.length > 0;
      if (leaked.length > 0) expected += ` (shows ${leaked.slice(0, 3).join(', ')})`;
      break;
    }
    case 'accepted':
      expected = '2xx, 3xx, or 409 (already exists)';
      wrong = answer.status >= 400 && answer.status !== 409;
      break;
    case 'as-unknown': {
      const twin = await send(world, cell, expectation.twin);
      const [mine, theirs] = namedValues(cell.slots, expectation.twin);
      expected = `as for an unknown value: ${shown(twin.answer)}`;
      wrong = comparable(answer, mine, oauth) !== comparable(twin.answer, theirs, oauth);
      if (expectation.exact) {
        expected = `${expectation.exact.status} ${JSON.stringify(expectation.exact.body)}`;
        wrong ||= answer.status !== expectation.exact.status || !isDeepStrictEqual(answer.json, expectation.exact.body);
      }
      break;
    }
  }
  const failure = [wrong ? 'answer' : '', stateChange ? `changed what ${stateOwner(cell)} can read:\n    ${stateChange}` : '']
    .filter(Boolean)
    .join('; ');
  return { ...result, expected, outcome: failure ? 'fail' : 'pass', ...(failure ? { failure } : {}) };
}

const stateOwner = (cell: Cell) => (cell.victim.org ? `${cell.victim.env}/${cell.victim.org}` : cell.victim.env);

/** The values that differ between a cell's request and its twin: each side's, to be blotted out before comparing the answers. */
function namedValues(slots: Slot[], twin: Slot[]): [string[], string[]] {
  const texts = (value: Slot['value']): string[] =>
    typeof value === 'string' ? [value] : value && !isLate(value) && !('clientId' in value) ? Object.values(value) : [];
  const mine: string[] = [];
  const theirs: string[] = [];
  slots.forEach((slot, index) => {
    const other = twin[index] as Slot;
    if (other.value === slot.value) return;
    mine.push(...texts(slot.value));
    theirs.push(...texts(other.value));
  });
  return [mine, theirs];
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const timestamp = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
const volatileKeys = new Set(['code', 'magic_link', 'relay_uri', 'access_token', 'id_token', 'refresh_token']);

/**
 * An answer with what legitimately differs between two requests blotted out: the named values,
 * ids, times, fresh codes. An OAuth error is its status and code (RFC 6749 section 5.2: the
 * description is free text for the client's developer).
 */
export function comparable(answer: RawAnswer, named: string[], oauth = false): string {
  if (oauth && answer.status >= 400)
    return JSON.stringify({ status: answer.status, error: (answer.json as { error?: string })?.error });
  const correlation = String(answer.headers['x-correlation-id'] ?? '');
  const scrub = (text: string) => {
    let scrubbed = correlation ? text.split(correlation).join('<correlation>') : text;
    for (const value of named.filter((candidate) => candidate.length > 0))
      for (const form of new Set([value, encodeURIComponent(value)])) scrubbed = scrubbed.split(form).join('<named>');
    return scrubbed.replace(uuid, '<uuid>').replace(timestamp, '<time>');
  };
  let body: unknown = scrub(answer.text);
  try {
    body = blot(JSON.parse(body as string));
  } catch {
    // not JSON: compared as scrubbed text
  }
  const location = answer.headers.location ? blotLocation(scrub(String(answer.headers.location))) : undefined;
  return JSON.stringify({ status: answer.status, location, body });
}

function blot(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(blot);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      volatileKeys.has(key) && typeof field === 'string' ? '<volatile>' : blot(field),
    ]),
  );
}

function blotLocation(location: string): string {
  try {
    const url = new URL(location);
    for (const key of ['code', 'request_id', 'SAMLRequest', 'SAMLResponse', 'Signature', 'RelayState'])
      if (url.searchParams.has(key)) url.searchParams.set(key, '<volatile>');
    return url.toString();
  } catch {
    return location;
  }
}
