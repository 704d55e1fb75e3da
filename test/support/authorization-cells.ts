import { fieldErrorsFromZod, onboardingSessionMessages } from '@sesame/contracts';
import { otherEnvironment, otherOrganization } from './authorization-identifiers';
import type { Context, Owner } from './authorization-identifiers';
import { overridesOf } from './authorization-overrides';
import { fieldsOf } from './authorization-requests';
import type { RequestTemplate, Slot } from './authorization-requests';
import type { AuthorizationWorld, Resolved } from './authorization-world';
import { notFound, unauthorized } from './identity-fixtures';

/**
 * a: no credentials; b: the other environment (its key, directory token, onboarding session or client;
 * for a browser endpoint, one identifier of the other environment); c: an API key holding every
 * scope but the operation's; d: one identifier (or the credential) of the other organization of
 * the same environment; owner: the request as generated, by its owner (proves it is valid).
 */
export type Column = 'a' | 'b' | 'c' | 'd' | 'owner';

export type Expectation =
  | { type: 'exact'; status: number; body: unknown }
  | { type: 'oauth'; status: number; error: string }
  /** The answer an identifier that does not exist gets (`twin`), and for a path parameter of the API exactly 404. */
  | { type: 'as-unknown'; twin: Slot[]; exact?: { status: number; body: unknown } }
  /** A listing by the other environment's key: none of the victim environment's identifiers in it. */
  | { type: 'no-leak'; values: string[] }
  | { type: 'accepted' };

export interface Cell {
  template: RequestTemplate;
  column: Column;
  name: string;
  slots: Slot[];
  /** Whose state must not change (what its owner can read is compared before and after). */
  victim: Owner;
  expectation?: Expectation;
  /** Why the cell does not apply. */
  notApplicable?: string;
}

const scimUnauthenticated = {
  schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
  status: '401',
  detail: 'Authentication failed: send the bearer token of the directory sync',
};

const onboardingSessionRequired = {
  error: {
    type: 'onboarding_session_required',
    message: onboardingSessionMessages.missing,
    doc_urls: ['http://localhost:8000/it-admin-onboarding'],
  },
};

const isNamed = (slot: Slot) => slot.role === 'anchor' || slot.role === 'identifier';
const owns = (victim: Owner, owner: Owner | undefined) =>
  owner !== undefined && owner.env === victim.env && (victim.org === undefined || victim.org === owner.org);
const replace = (slots: Slot[], from: Slot, to: Slot) => slots.map((slot) => (slot === from ? to : slot));

/** Every cell of a request template: columns a and c in production, b and d in both environments, and the owner's request. */
export function cellsOf(world: AuthorizationWorld, template: RequestTemplate): Cell[] {
  const cells: Cell[] = [];
  const inProduction = template.context.env === 'production';
  if (inProduction) cells.push(withoutCredentials(template), lackingScope(world, template));
  const crossTenant = [...otherEnvironmentCells(world, template), ...otherOrganizationCells(world, template)];
  cells.push(...crossTenant);
  // The owner's request proves that what the cross-tenant cells name resolves: it is made where they apply.
  if (inProduction && crossTenant.some((cell) => !cell.notApplicable))
    cells.push({
      template,
      column: 'owner',
      name: 'owner',
      slots: template.slots,
      victim: template.context,
      expectation: ownerExpectation(template),
    });
  return cells.map((cell) => {
    const reason = template.skips[cell.name];
    return reason ? { ...cell, expectation: undefined, notApplicable: reason } : cell;
  });
}

function withoutCredentials(template: RequestTemplate): Cell {
  const base = { template, column: 'a' as const, name: 'a', victim: { env: template.context.env } };
  const credential = template.slots.find((slot) => slot.role === 'credential');
  if (!credential) return { ...base, slots: template.slots, notApplicable: 'public: no credentials' };
  const slots = template.slots.filter((slot) => slot !== credential);
  if (credential.kind === 'apiKey') return { ...base, slots, expectation: { type: 'exact', status: 401, body: unauthorized } };
  if (credential.kind === 'scimToken')
    return { ...base, slots, expectation: { type: 'exact', status: 401, body: scimUnauthenticated } };
  if (credential.kind === 'client')
    return { ...base, slots, expectation: { type: 'oauth', status: 401, error: 'invalid_client' } };
  if (credential.kind === 'onboardingSession')
    return { ...base, slots, expectation: { type: 'exact', status: 401, body: onboardingSessionRequired } };
  const parsed = template.operation.request.body?.safeParse(fieldsOf(slots, 'body'));
  const fields = parsed && !parsed.success ? fieldErrorsFromZod(parsed.error) : {};
  return { ...base, slots, expectation: { type: 'exact', status: 422, body: { errors: fields } } };
}

function lackingScope(world: AuthorizationWorld, template: RequestTemplate): Cell {
  const base = { template, column: 'c' as const, name: 'c', victim: { env: template.context.env } };
  const scope = template.operation.scope;
  const credential = template.slots.find((slot) => slot.kind === 'apiKey');
  if (!credential || !scope) return { ...base, slots: template.slots, notApplicable: 'no scope: not called with an API key' };
  const key = world.lacking.get(scope);
  const slots = replace(template.slots, credential, { ...credential, value: key ?? null });
  return { ...base, slots, expectation: { type: 'exact', status: 401, body: unauthorized } };
}

/** With a credential: the whole request sent with the other environment's; without: each identifier taken from the other environment. */
function otherEnvironmentCells(world: AuthorizationWorld, template: RequestTemplate): Cell[] {
  const { context } = template;
  const other: Context = { ...context, env: otherEnvironment(context.env) };
  const credential = template.slots.find((slot) => slot.role === 'credential');
  if (credential) {
    const value =
      credential.kind === 'apiKey'
        ? world.owners[other.env]
        : world.resolve(credential.kind!, { ...credential.owner!, env: other.env }, other);
    const slots = replace(template.slots, credential, {
      ...credential,
      value: value ?? null,
      owner: { ...credential.owner!, env: other.env },
    });
    return [expectAsUnknown(world, template, 'b', 'b', slots, { env: context.env })];
  }
  const identifiers = template.slots.filter((slot) => slot.role === 'identifier' && slot.owner);
  if (identifiers.length === 0)
    return [
      { template, column: 'b', name: 'b', slots: template.slots, victim: context, notApplicable: 'names nothing a tenant owns' },
    ];
  return identifiers.map((slot) => {
    const owner = { ...slot.owner!, env: other.env };
    const swapped = { ...slot, owner, value: world.resolve(slot.kind!, owner, context) ?? null };
    return expectAsUnknown(world, template, 'b', `b:${slot.name}`, replace(template.slots, slot, swapped), owner);
  });
}

/**
 * Each identifier of the organization swapped for the other organization's, in a request about
 * one organization (it names it, or its credential is the organization's); an organization's
 * credential swapped likewise. A request about no organization (the token endpoint, a relay) is
 * made by a caller who owns both organizations' identifiers: nothing to mix.
 */
function otherOrganizationCells(world: AuthorizationWorld, template: RequestTemplate): Cell[] {
  const { context } = template;
  const other: Owner = { env: context.env, org: otherOrganization(context.org) };
  const aboutOne = template.slots.some(
    (slot) => slot.role === 'anchor' || (slot.role === 'credential' && slot.owner?.org !== undefined),
  );
  const cells = template.slots
    .filter((slot) => aboutOne && slot.role === 'identifier' && slot.owner?.org !== undefined)
    .map((slot) => {
      const swapped = { ...slot, owner: other, value: world.resolve(slot.kind!, other, context) ?? null };
      return expectAsUnknown(world, template, 'd', `d:${slot.name}`, replace(template.slots, slot, swapped), other);
    });
  const credential = template.slots.find((slot) => slot.role === 'credential' && slot.kind !== 'apiKey');
  if (credential) {
    const name = `d:${credential.in === 'header' ? credential.kind : credential.name}`;
    const value =
      credential.kind === 'client' ? world.envs[context.env].otherClient : world.resolve(credential.kind!, other, context);
    const slots = replace(template.slots, credential, { ...credential, value: (value as string) ?? null, owner: other });
    cells.push(expectAsUnknown(world, template, 'd', name, slots, context));
  }
  if (cells.length > 0) return cells;
  return [
    {
      template,
      column: 'd',
      name: 'd',
      slots: template.slots,
      victim: other,
      notApplicable: aboutOne
        ? 'names nothing of its organization but the organization itself'
        : 'about no organization: its caller owns every organization’s identifiers',
    },
  ];
}

/**
 * The cell answers as if what the victim owns did not exist: the twin request replaces each of
 * the victim's identifiers by an unknown one. A listing that names nothing must not show the
 * victim's identifiers; a write that names nothing of the victim does not apply.
 */
function expectAsUnknown(
  world: AuthorizationWorld,
  template: RequestTemplate,
  column: Column,
  name: string,
  slots: Slot[],
  victim: Owner,
): Cell {
  const cell = { template, column, name, slots, victim };
  const named = slots.filter((slot) => isNamed(slot) && owns(victim, slot.owner) && slot.value !== null);
  if (named.length === 0) {
    if (template.operation.method !== 'get') return { ...cell, notApplicable: `names nothing of ${describe(victim)}` };
    return { ...cell, expectation: { type: 'no-leak', values: identifiersOf(world, victim) } };
  }
  // One stranger per identifier: two fields naming the same thing (an alias such as `user_email`
  // next to `email`) still name one same unknown thing in the twin.
  const strangers = new Map<string, Resolved>();
  const strangerOf = (slot: Slot) => {
    const key = `${slot.kind}\u0000${String(slot.value)}`;
    if (!strangers.has(key)) strangers.set(key, world.strangerOf(slot.kind!, slot.value as string, template.context));
    return strangers.get(key) as Resolved;
  };
  const twin = slots.map((slot) => (named.includes(slot) ? { ...slot, value: strangerOf(slot) } : slot));
  // A path parameter of an operation documenting 404 names a resource: the answer is exactly that 404.
  const inPath = named.some((slot) => slot.in === 'path');
  const documents404 =
    (template.operation.errorStyle ?? 'api') === 'api' && template.operation.errors.includes('resource_not_found');
  return {
    ...cell,
    expectation: { type: 'as-unknown', twin, ...(inPath && documents404 ? { exact: { status: 404, body: notFound } } : {}) },
  };
}

/** Accepted, or, where the world already holds what it creates, the documented duplicate refusal (override table). */
function ownerExpectation(template: RequestTemplate): Expectation {
  const duplicate = overridesOf(template.operation).owner;
  return duplicate ? { type: 'exact', ...duplicate } : { type: 'accepted' };
}

export const describe = (owner: Owner) => (owner.org ? `${owner.env}/${owner.org}` : owner.env);

/** The identifiers of a victim's world worth looking for in another tenant's answers (long enough to be unique). */
function identifiersOf(world: AuthorizationWorld, victim: Owner): string[] {
  const orgs = victim.org ? [victim.org] : (['a', 'b'] as const);
  const values = [
    ...orgs.flatMap((org) => Object.entries(world.orgs[victim.env][org])),
    ...(victim.org ? [] : Object.entries(world.envs[victim.env])),
  ];
  const plain = new Set(['password', 'idpMetadata', 'onboardingPage', 'partnerOrganization', 'emailDomain']);
  return values
    .filter(
      ([kind, value]) => typeof value === 'string' && value.length >= 8 && !plain.has(kind) && !kind.startsWith('stranger:'),
    )
    .map(([, value]) => value as string);
}
