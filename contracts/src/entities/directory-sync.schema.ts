import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { timestampSchema } from '../common/primitives.schema';

/** Identity providers that provision through SCIM; `generic` for any other SCIM 2.0 client. */
export const directorySyncProviders = ['azure_ad', 'okta', 'ping_one', 'onelogin', 'jumpcloud', 'google', 'generic'] as const;
export type DirectorySyncProvider = (typeof directorySyncProviders)[number];

export const authSecretTokenSchema = z
  .object({
    hint: z.string().meta({ description: 'Last four characters of the token' }),
    provider_key: z.string().meta({ description: 'Public identifier of the token' }),
    value: z
      .string()
      .nullable()
      .meta({ description: 'The bearer token of the SCIM client: shown only once, at creation or rotation (null afterwards)' }),
  })
  .meta({ id: 'AuthSecretToken' });
export type AuthSecretToken = z.infer<typeof authSecretTokenSchema>;

export const directorySyncSchema = z
  .object({
    __type__: z.literal('DirectorySync'),
    __domain__: z.string(),
    __environment__: environmentSchema,
    id: z.uuid(),
    active: z.boolean(),
    provider_type: z.enum(directorySyncProviders),
    auth_secret_token: authSecretTokenSchema,
    scim_base_url: z.string().meta({ description: 'The SCIM 2.0 base URL to give the identity provider' }),
    inserted_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'DirectorySync' });
export type DirectorySync = z.infer<typeof directorySyncSchema>;

export const attributeMappingSchema = z
  .object({
    name: z.string().meta({ description: 'SCIM attribute path, e.g. `name.givenName` or `emails[type eq "work"].value`' }),
    mapped_name: z.string().meta({ description: 'Sesame user field, e.g. `profile.given_name`, `email`, `metadata.department`' }),
    required: z.boolean(),
  })
  .meta({ id: 'AttributeMapping' });
export type AttributeMapping = z.infer<typeof attributeMappingSchema>;

export const attributesMappingSchema = z
  .object({
    __type__: z.literal('AttributesMapping'),
    __environment__: environmentSchema,
    attributes: z.array(attributeMappingSchema),
  })
  .meta({ id: 'AttributesMapping' });
export type AttributesMapping = z.infer<typeof attributesMappingSchema>;
