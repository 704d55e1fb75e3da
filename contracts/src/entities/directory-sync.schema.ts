import { z } from '../zod';
import { timestampSchema } from '../common/primitives.schema';

export const authSecretTokenSchema = z
  .object({
    hint: z.string(),
    provider_key: z.string(),
    value: z.string().nullable().meta({ description: 'Shown only once, at creation or rotation' }),
  })
  .meta({ id: 'AuthSecretToken' });

export const directorySyncSchema = z
  .object({
    __type__: z.literal('DirectorySync'),
    __domain__: z.string(),
    __environment__: z.enum(['sandbox', 'production']),
    id: z.uuid(),
    active: z.boolean(),
    provider_type: z.string(),
    auth_secret_token: authSecretTokenSchema,
    scim_base_url: z.string(),
    inserted_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'DirectorySync' });
export type DirectorySync = z.infer<typeof directorySyncSchema>;

export const attributeMappingSchema = z
  .object({ name: z.string(), mapped_name: z.string(), required: z.boolean().default(true) })
  .meta({ id: 'AttributeMapping' });
export const attributesMappingSchema = z.array(attributeMappingSchema).meta({ id: 'AttributesMapping' });
export type AttributeMapping = z.infer<typeof attributeMappingSchema>;
