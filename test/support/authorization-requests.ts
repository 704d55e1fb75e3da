import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { Operation, z } from '@sesame/contracts';
import { isOrganizationKind, publicPathValues, ruleFor } from './authorization-identifiers';
import type { Context, Kind, Location, Owner, Role } from './authorization-identifiers';
import { overridesOf } from './authorization-overrides';
import type { FieldValue } from './authorization-overrides';
import { isLate } from './authorization-world';
import type { AuthorizationWorld, Resolved } from './authorization-world';
import type { JsonSchema, OpenApiDocument } from './openapi';
import type { ApiKey } from './system';

/** One filled part of a request: a field, or the credential (header or body fields). */
export interface Slot {
  in: Location | 'header';
  name: string;
  kind?: Kind;
  role: Role;
  owner?: Owner;
  /** An ApiKey for an API-key credential; a record spreads into several fields (client_id and client_secret). */
  value: Resolved | ApiKey | null;
}

/** A valid request of an operation, generated in a context of the world: what every cell starts from. */
export interface RequestTemplate {
  operation: Operation;
  variant: string;
  context: Context;
  slots: Slot[];
  /** Cells that do not apply to this variant, with the reason (from the override table). */
  skips: Record<string, string>;
  contentType: string;
}

export interface Generated {
  templates: RequestTemplate[];
  problems: string[];
}

let fresh = 0;
const nextFresh = () => `${Date.now().toString(36)}${(fresh++).toString(36)}`;

/**
 * The requests of `operation` in `context`, one per variant: path parameters resolved by name
 * from the world, bodies and queries generated as minimal valid values from the OpenAPI
 * document (required fields, plus every optional field naming something of the world), checked
 * with the operation's own zod schemas. What cannot be resolved or validated is a problem.
 */
export function generateRequests(
  world: AuthorizationWorld,
  document: OpenApiDocument,
  operation: Operation,
  context: Context,
): Generated {
  const documented = document.operations().find((candidate) => candidate.operationId === operation.operationId);
  if (!documented) return { templates: [], problems: ['not in the OpenAPI document'] };
  const override = overridesOf(operation);
  const problems: string[] = [];
  const templates: RequestTemplate[] = [];
  for (const [variant, fields] of Object.entries(override.variants ?? { '': {} })) {
    const known = problems.length;
    const slots: Slot[] = [];
    const need = (slot: Slot | string) => (typeof slot === 'string' ? problems.push(slot) : slots.push(slot));
    const credential = credentialSlot(world, operation, context);
    if (credential) need(credential);
    for (const parameter of documented.parameters.filter((candidate) => candidate.in === 'path'))
      need(pathSlot(world, operation, context, parameter.name));
    for (const parameter of documented.parameters.filter((candidate) => candidate.in === 'query'))
      for (const slot of fieldSlots(
        world,
        document,
        operation,
        context,
        'query',
        parameter.name,
        parameter.schema,
        parameter.required,
        fields,
      ))
        need(slot);
    const body = documented.body ? document.resolve(documented.body) : undefined;
    const properties = { ...Object.fromEntries(Object.keys(fields).map((name) => [name, {}])), ...body?.properties };
    if (body)
      for (const [name, schema] of Object.entries<JsonSchema>(properties))
        for (const slot of fieldSlots(
          world,
          document,
          operation,
          context,
          'body',
          name,
          schema,
          body.required?.includes(name),
          fields,
        ))
          need(slot);
    const generated: RequestTemplate = {
      operation,
      variant,
      context,
      slots,
      skips: override.skips?.[variant] ?? {},
      contentType: documented.contentTypes[0] ?? 'application/json',
    };
    const credentialed = operation.auth !== 'none';
    if (credentialed && !slots.some((slot) => slot.role === 'credential'))
      problems.push(`auth ${operation.auth}: no rule says which field or header carries its credential`);
    if (problems.length > known) continue;
    const valid = validVariants(generated);
    templates.push(...valid, ...valid.flatMap((template) => alternatives(world, template)));
    if (valid.length === 0) problems.push(`variant ${variant || '(default)'}: ${invalidity(generated)}`);
  }
  return { templates, problems: [...new Set(problems)] };
}

/** The template again with a field given as the other kind its rule accepts (a user by email rather than by id). */
function alternatives(world: AuthorizationWorld, template: RequestTemplate): RequestTemplate[] {
  return template.slots.flatMap((slot) => {
    const alternative =
      slot.in === 'path'
        ? ruleFor('path', slot.name, template.operation.path, template.operation.method)?.alternative
        : undefined;
    const value = alternative && world.resolve(alternative, slot.owner as Owner, template.context);
    if (!alternative || value === undefined) return [];
    const variant = [template.variant, `${slot.name} as ${alternative}`].filter(Boolean).join(', ');
    return [
      {
        ...template,
        variant,
        slots: template.slots.map((other) => (other === slot ? { ...slot, kind: alternative, value } : other)),
      },
    ];
  });
}

function credentialSlot(world: AuthorizationWorld, operation: Operation, context: Context): Slot | undefined {
  if (operation.auth === 'api_key')
    return {
      in: 'header',
      name: 'authorization',
      kind: 'apiKey',
      role: 'credential',
      owner: { env: context.env },
      value: world.owners[context.env],
    };
  if (operation.auth === 'admin_invitation')
    return {
      in: 'header',
      name: 'cookie',
      kind: 'onboardingSession',
      role: 'credential',
      owner: { ...context },
      value: world.resolve('onboardingSession', context, context) ?? null,
    };
  if (operation.auth === 'scim') {
    const token = world.resolve('scimToken', context, context);
    return {
      in: 'header',
      name: 'authorization',
      kind: 'scimToken',
      role: 'credential',
      owner: { ...context },
      value: token ?? null,
    };
  }
  return undefined;
}

function ownerOf(kind: Kind, context: Context): Owner {
  return isOrganizationKind(kind) ? { ...context } : { env: context.env };
}

function pathSlot(world: AuthorizationWorld, operation: Operation, context: Context, name: string): Slot | string {
  const rule = ruleFor('path', name, operation.path);
  if (rule) {
    const value = world.resolve(rule.kind, ownerOf(rule.kind, context), context);
    if (value === undefined) return `path parameter {${name}}: the world has no ${rule.kind} in ${context.env}/${context.org}`;
    return { in: 'path', name, kind: rule.kind, role: rule.role, owner: ownerOf(rule.kind, context), value };
  }
  const constant = publicPathValues.find((candidate) => candidate.name === name && candidate.path.test(operation.path));
  if (constant) return { in: 'path', name, role: 'value', value: constant.value };
  return `path parameter {${name}}: no rule says what it names (test/support/authorization-identifiers.ts)`;
}

/** The slots of one query or body field: the world's value when a rule names it, else a minimal value when required. */
function fieldSlots(
  world: AuthorizationWorld,
  document: OpenApiDocument,
  operation: Operation,
  context: Context,
  location: Location,
  name: string,
  schema: JsonSchema,
  required: boolean | undefined,
  fields: Record<string, FieldValue>,
): (Slot | string)[] {
  const given = fields[name];
  if (given === null) return [];
  if (typeof given === 'object' && 'kind' in given)
    return [worldSlot(world, context, location, name, (given as { kind: Kind }).kind, 'identifier')];
  if (given !== undefined)
    return [{ in: location, name, role: 'value', value: (typeof given === 'function' ? given() : given) as Resolved }];
  const rule = ruleFor(location, name, operation.path);
  if (rule?.kind === 'client') return [worldSlot(world, context, location, name, 'client', 'credential')];
  if (name === 'client_secret' && ruleFor(location, 'client_id', operation.path)) return [];
  if (rule) return [worldSlot(world, context, location, name, rule.kind, rule.role)];
  if (!required) return [];
  const emailDomain = `${context.org}-${context.env}.matrix.example`;
  return [{ in: location, name, role: 'value', value: minimalValue(document, schema, name, emailDomain) as Resolved }];
}

function worldSlot(
  world: AuthorizationWorld,
  context: Context,
  location: Location,
  name: string,
  kind: Kind,
  role: Role,
): Slot | string {
  const owner = ownerOf(kind, context);
  const value = world.resolve(kind, owner, context);
  if (value === undefined) return `${location} field ${name}: the world has no ${kind} in ${context.env}/${context.org}`;
  return { in: location, name, kind, role, owner, value };
}

/**
 * The simplest value the document allows for a field, guessed from its name first (emails at the
 * organization's domain, URLs, event codes), fresh each time (a create makes a new resource).
 */
export function minimalValue(
  document: OpenApiDocument,
  schema: JsonSchema,
  name = '',
  emailDomain = 'fresh.matrix.example',
): unknown {
  const resolved = document.resolve(schema);
  if (Array.isArray(resolved.enum)) return resolved.enum[0];
  const choices: JsonSchema[] | undefined = resolved.anyOf ?? resolved.oneOf;
  if (choices) return minimalValue(document, choices.find((choice) => choice.type !== 'null') ?? {}, name, emailDomain);
  const type = Array.isArray(resolved.type) ? resolved.type.find((candidate: string) => candidate !== 'null') : resolved.type;
  if (/event_codes?$/.test(name)) return type === 'array' ? ['user_metakey.deleted'] : 'user_metakey.deleted';
  switch (type) {
    case 'boolean':
      return resolved.default ?? false;
    case 'integer':
    case 'number':
      return Math.max(resolved.minimum ?? 1, 1);
    case 'array':
      return (resolved.minItems ?? 0) > 0 ? [minimalValue(document, resolved.items ?? {}, name, emailDomain)] : [];
    case 'object':
      return Object.fromEntries(
        Object.entries<JsonSchema>(resolved.properties ?? {})
          .filter(([field]) => (resolved.required ?? []).includes(field))
          .map(([field, property]) => [field, minimalValue(document, property, field, emailDomain)]),
      );
    default:
      return minimalString(resolved, name, emailDomain);
  }
}

function minimalString(schema: JsonSchema, name: string, emailDomain: string): string {
  const id = nextFresh();
  if (/email/i.test(name) || schema.format === 'email') return `matrix-${id}@${emailDomain}`;
  if (/(url|uri)$/i.test(name) || schema.format === 'uri') return `https://fresh-${id}.matrix.example/callback`;
  if (schema.format === 'uuid') return randomUUID();
  // A range's start a day before its end (the export refuses an empty range).
  if (schema.format === 'date-time') return new Date(Date.now() - (/start/i.test(name) ? 86_400_000 : 0)).toISOString();
  if (typeof schema.pattern === 'string')
    return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: fresh })[0] as string;
  return `matrix_${id}`.padEnd(schema.minLength ?? 1, 'x');
}

/** The template as valid requests: itself, or, when optional world fields clash (exactly one of two), one variant per field dropped. */
function validVariants(template: RequestTemplate): RequestTemplate[] {
  if (invalidity(template) === undefined) return [template];
  const droppable = template.slots.filter((slot) => slot.in !== 'header' && slot.in !== 'path' && slot.role !== 'value');
  return droppable
    .map((dropped) => ({
      ...template,
      variant: [template.variant, `without ${dropped.name}`].filter(Boolean).join(', '),
      slots: template.slots.filter((slot) => slot !== dropped),
    }))
    .filter((candidate) => invalidity(candidate) === undefined);
}

/** Why the operation's zod schemas refuse the template's fields, or undefined when they accept them. */
export function invalidity(template: RequestTemplate): string | undefined {
  const { params, query, body } = template.operation.request;
  const parts: [z.ZodType | undefined, Location][] = [
    [params, 'path'],
    [query, 'query'],
    [body, 'body'],
  ];
  const issues = parts.flatMap(([schema, location]) => {
    if (!schema) return [];
    const parsed = schema.safeParse(fieldsOf(template.slots, location));
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${location} ${issue.path.join('.')}: ${issue.message}`);
  });
  return issues.length > 0 ? issues.join('; ') : undefined;
}

/** The fields of one location, records spread (the OAuth client's id and secret), late values by their sample. */
export function fieldsOf(slots: Slot[], location: Location): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const slot of slots.filter((candidate) => candidate.in === location && candidate.value !== null))
    if (isLate(slot.value)) fields[slot.name] = slot.value.sample;
    else if (
      typeof slot.value === 'object' &&
      slot.value !== null &&
      !Array.isArray(slot.value) &&
      !('clientId' in slot.value) &&
      slot.kind
    )
      Object.assign(fields, slot.value);
    else fields[slot.name] = slot.value;
  return fields;
}
