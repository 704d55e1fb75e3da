import { z } from '../zod';

export const redirectUriSchema = z
  .object({
    __type__: z.literal('RedirectUri'),
    __environment__: z.enum(['sandbox', 'production']),
    id: z.uuid(),
    url: z.string(),
    default: z.boolean(),
  })
  .meta({ id: 'RedirectUri' });
export type RedirectUri = z.infer<typeof redirectUriSchema>;

export const relaySchema = z
  .object({
    id: z.uuid(),
    jit: z.boolean(),
    organization: z.string(),
    partner_domain: z.string(),
    source_organizations: z
      .array(z.string())
      .meta({ description: 'Domains of the organizations whose users may be relayed; empty: nobody' }),
    partner_redirect_uri: z.string(),
    session_duration_minutes: z.number().int(),
  })
  .meta({ id: 'Relay' });
export type Relay = z.infer<typeof relaySchema>;

export const relayRequestSchema = z
  .object({
    from_user: z.uuid(),
    partner_redirect_uri: z.string(),
    relay_id: z.uuid(),
    relay_uri: z.string(),
    to_partner_user: z.uuid().nullable(),
  })
  .meta({ id: 'RelayRequest' });

export const userMetakeyTypes = ['string', 'integer', 'boolean', 'float'] as const;

export const userMetakeySchema = z
  .object({
    name: z.string(),
    required: z.boolean(),
    type: z.enum(userMetakeyTypes),
  })
  .meta({ id: 'UserMetakey' });
export type UserMetakey = z.infer<typeof userMetakeySchema>;

export const tokenSchema = z
  .object({
    access_token: z.string(),
    id_token: z.string().optional(),
    refresh_token: z.string().optional(),
    expires_in: z.number().int(),
    scope: z.string(),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'Token' });
export type Token = z.infer<typeof tokenSchema>;

export const jwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).meta({ id: 'JsonWebKeySet' });
export type Jwks = z.infer<typeof jwksSchema>;
