import { z } from '@sesame/contracts';
import { baseConfigSchema, requireStoreUrls } from '@sesame/platform';

export const directorySyncConfigSchema = baseConfigSchema
  .extend({
    /** Public base URL of the gateway: the SCIM base URL given to identity providers is `<url>/scim/v2/<directory sync id>`. */
    SESAME_PUBLIC_URL: z.url().default('http://localhost:8080'),
  })
  .superRefine(requireStoreUrls);
export type DirectorySyncConfig = z.infer<typeof directorySyncConfigSchema>;

export const scimBaseUrl = (config: DirectorySyncConfig, directorySyncId: string) =>
  `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/scim/v2/${directorySyncId}`;
